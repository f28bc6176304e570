import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { keyCreatedResponse } from '../../../shared/schemas/key-create.js';
import { currentCompanyKey } from '../../company.js';
import { storeName, storeSecretKey } from '../../keys.js';

export interface KeysCreateOptions {
  /** The Company (name or id): --root or --company, else the current one (`svc companies use`). */
  root?: string;
  name: string;
  /** false with --no-store: print the key only. */
  store: boolean;
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
  const created = await ctx.api().post('/api/keys', { root, name: opts.name }, { schema: keyCreatedResponse });
  if (opts.store) await storeSecretKey(ctx, created.company.id, created.secret_key);
  if (ctx.json) return ctx.printJson({ ...created, stored: opts.store });
  ctx.out(
    `Created secret key ${created.id} '${created.name}' for Company ${created.company.name} (${created.company.id})`,
  );
  ctx.out();
  ctx.out(`  ${created.secret_key}`);
  ctx.out();
  ctx.out(created.note);
  if (opts.store)
    ctx.out(`Stored in ${storeName(ctx)} for this daemon and Company; 'svc keys validate' and 'svc mcp' use it.`);
}

export function keysCreateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('create')
    .description('create a secret key (sk_) bound to one of your Companies')
    .option('--company <company>', 'the Company name or id (default: the current one)')
    .option('--root <company>', 'the same as --company (the name the API uses)')
    .requiredOption('--name <label>', 'a label for the key')
    .option('--no-store', 'only print the key; do not keep it in the credential store');
  return action(cmd, makeCtx, (ctx, flags) =>
    runKeysCreate({ root: flags.company ?? flags.root, name: flags.name, store: flags.store !== false }, ctx),
  );
}
