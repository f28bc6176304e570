import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey, resolveCompanyId } from '../../company.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, AuthRequiredError } from '../../errors.js';
import { assertWellFormed, storedAccountKey, storedSecretKey } from '../../keys.js';

interface Validation {
  ok: boolean;
  user: { id: string; email: string | null };
  company: { id: string; name: string };
  account_key: boolean;
}

/**
 * `svc keys validate`: asks the daemon whom the keys resolve to, without running a tool.
 * Keys: SVC_SECRET_KEY / SVC_ACCOUNT_KEY, else the stored ones (the secret key of --company or of
 * the current Company). Both are format-checked before anything is sent.
 */
export async function runKeysValidate(opts: { company?: string }, ctx: CliContext): Promise<void> {
  const secret = assertWellFormed(
    'secret',
    ctx.env.SVC_SECRET_KEY ?? (await findStoredSecretKey(ctx, opts.company)),
    ctx.env.SVC_SECRET_KEY ? 'SVC_SECRET_KEY' : 'the stored secret key',
  );
  const accountRaw = ctx.env.SVC_ACCOUNT_KEY ?? (await storedAccountKey(ctx));
  const account = accountRaw
    ? assertWellFormed('account', accountRaw, ctx.env.SVC_ACCOUNT_KEY ? 'SVC_ACCOUNT_KEY' : 'the stored account key')
    : null;
  let res: Validation;
  try {
    res = await ctx
      .api()
      .post<Validation>('/api/mcp/validate', {}, { token: secret, headers: account ? { 'X-Api-Key': account } : {} });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) {
      throw new AuthRequiredError(
        `the keys were refused: ${err.message}`,
        "create a new secret key with 'svc keys create --name <label>' (for the current Company; --company <name> for another)",
      );
    }
    throw err;
  }
  if (ctx.json) return ctx.printJson(res);
  ctx.out(
    `OK: the keys act as ${res.user.email ?? res.user.id} (${res.user.id}) on Company ${res.company.name} (${res.company.id})`,
  );
  ctx.out(res.account_key ? 'account key: sent and matches' : 'account key: not sent');
}

async function findStoredSecretKey(ctx: CliContext, flag?: string): Promise<string> {
  const current = ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope))?.id;
  // A stored key is filed under the Company id: an id (or the current Company) needs no login; a name is looked up.
  const companyId = flag ? ((await storedSecretKey(ctx, flag)) ? flag : await resolveCompanyId(ctx, flag)) : current;
  const key = companyId ? await storedSecretKey(ctx, companyId) : null;
  if (!key) {
    throw new AuthRequiredError(
      companyId
        ? `no secret key stored for Company ${companyId} on ${ctx.url()}`
        : 'no secret key: set SVC_SECRET_KEY, or pick a Company with --company',
      "set SVC_SECRET_KEY, or run 'svc keys create --name <label>' (for the current Company; --company <name> for another)",
    );
  }
  return key;
}

export function keysValidateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('validate')
    .description('check which user and Company your keys resolve to (POST /api/mcp/validate)')
    .option('--company <company>', 'use the stored key of this Company (name or id) instead of the current one');
  return action(cmd, makeCtx, (ctx, flags) => runKeysValidate({ company: flags.company }, ctx));
}
