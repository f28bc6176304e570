import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, UsageError } from '../../errors.js';
import { accounts } from '../../credentials/store.js';
import { readTokenClaims } from '../../token-claims.js';
import { keyCreatedResponse } from '../../../shared/schemas/key-create.js';
import { currentCompanyKey } from '../../company.js';
import { storeName } from '../../keys.js';
import { addStoredKey, type StoredKey } from '../../stored-keys.js';
import { ALL_SCOPES, isScope } from '../../../shared/scopes.js';
import { parseDuration } from '../../../shared/duration.js';

export interface KeysCreateOptions {
  /** The Company (name or id): --root or --company, else the current one (`svc companies use`). */
  root?: string;
  name: string;
  /** false with --no-store: print the key only. */
  store: boolean;
  /** --scope (repeatable); none: every scope. */
  scopes?: string[];
  /** --expires: a duration such as 30d, 24h or 3600 (seconds). */
  expires?: string;
}

/**
 * `svc keys create --name <label> [--company <company>]`: prints the secret key once and keeps it in the
 * credential store under this daemon URL and the Company, where `svc keys validate` and `svc mcp` find it.
 */
export async function runKeysCreate(opts: KeysCreateOptions, ctx: CliContext): Promise<void> {
  const root = opts.root?.trim() || ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope))?.id;
  if (!root)
    throw new UsageError(
      'no Company selected for the key',
      "pass --company <name>, or run 'svc companies use <name>' once",
    );
  if (!opts.name?.trim()) throw new UsageError('--name <label> is required: a label to recognise the key by');
  const body = { root, name: opts.name, ...accessOf(opts) };
  const created = await ctx
    .api()
    .post('/api/keys', body, { schema: keyCreatedResponse })
    .catch(async (err) => {
      throw err instanceof ApiRequestError && err.status === 402 ? await tierRefusal(ctx, err) : err;
    });
  const others = opts.store
    ? (
        await addStoredKey(
          ctx,
          created.company.id,
          { id: created.id, name: created.name, secret: created.secret_key },
          { makeCurrent: true },
        )
      ).others
    : [];
  if (ctx.json) return ctx.printJson({ ...created, stored: opts.store });
  ctx.out(
    `Created secret key ${created.id} '${created.name}' for Company ${created.company.name} (${created.company.id})`,
  );
  ctx.out(describeAccess(created));
  ctx.out();
  ctx.out(`  ${created.secret_key}`);
  ctx.out();
  ctx.out(created.note);
  if (!opts.store) return;
  ctx.out(
    `Stored in ${storeName(ctx)} as the current key for ${created.company.name}; 'svc keys validate' and 'svc mcp' use it.`,
  );
  if (others.length)
    ctx.out(
      `Also stored for this Company: ${others.map(describeStored).join(', ')}; switch back with 'svc keys use <id>'.`,
    );
}

/** The tier refusal said as what failed (the daemon's sentence kept), with the exact command for this account. */
async function tierRefusal(ctx: CliContext, err: ApiRequestError): Promise<ApiRequestError> {
  const token = ctx.env.SVC_TOKEN ?? (await ctx.credentials().get(accounts.token(ctx.scope)));
  const email = readTokenClaims(token).email;
  const grant = email
    ? `'svc admin tier ${email} company'`
    : "'svc admin tier YOUR-EMAIL company' ('svc whoami' shows it)";
  return new ApiRequestError(
    402,
    err.code,
    `cannot create a secret key: ${err.message}`,
    err.body,
    `secret keys need the company or owner tier; on a local daemon the operator grants it: ${grant}`,
  );
}

export const describeStored = (k: StoredKey) => (k.id ? `${k.id} '${k.name}'` : `${k.secret.slice(0, 9)}…`);

export function keysCreateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('create')
    .description('create a secret key (sk_) bound to one of your Companies')
    .option('--company <company>', 'the Company name or id (default: the current one)')
    .option('--root <company>', 'the same as --company (the name the API uses)')
    .requiredOption('--name <label>', 'a label for the key')
    .option(
      '--scope <scope>',
      `a scope the key may use (repeatable; default: every scope): ${ALL_SCOPES.join(', ')}`,
      collect,
      [],
    )
    .option('--expires <duration>', 'the key stops working after this long, e.g. 30d, 24h, 3600 (seconds)')
    .option('--no-store', 'only print the key; do not keep it in the credential store');
  return action(cmd, makeCtx, (ctx, flags) =>
    runKeysCreate(
      {
        root: flags.company ?? flags.root,
        name: flags.name,
        store: flags.store !== false,
        scopes: flags.scope,
        expires: flags.expires,
      },
      ctx,
    ),
  );
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The scopes and expiry asked for, checked here first so a typo is a usage error before any request. */
function accessOf(opts: KeysCreateOptions): { scopes?: string[]; expires_in?: number } {
  const scopes =
    opts.scopes
      ?.flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean) ?? [];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0)
    throw new UsageError(`unknown scope ${unknown.join(', ')}`, `the scopes are: ${ALL_SCOPES.join(', ')}`);
  let expires_in: number | undefined;
  if (opts.expires !== undefined) {
    expires_in = parseDuration(opts.expires) ?? undefined;
    if (!expires_in)
      throw new UsageError(`--expires ${opts.expires} is not a duration`, 'use e.g. 30d, 24h, 90m or 3600 (seconds)');
  }
  return { ...(scopes.length > 0 ? { scopes } : {}), ...(expires_in ? { expires_in } : {}) };
}

export function describeAccess(k: { scopes?: string[] | null; expires_at?: string | null }): string {
  const scopes = k.scopes ? `scopes ${k.scopes.join(', ')}` : 'every scope';
  return `It has ${scopes}, and ${k.expires_at ? `expires at ${k.expires_at}` : 'does not expire'}.`;
}
