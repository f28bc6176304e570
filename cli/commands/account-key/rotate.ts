import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { storeAccountKey, storeName } from '../../keys.js';

interface RotatedKey {
  ok: boolean;
  id: string;
  api_key: string;
  rotated: boolean;
}

/** `svc account-key rotate`: a new `ak_` (the old one stops working at once), printed once and stored. */
export async function runAccountKeyRotate(opts: { store: boolean }, ctx: CliContext): Promise<void> {
  const res = await ctx.api().post<RotatedKey>('/api/account/api-key');
  if (opts.store) await storeAccountKey(ctx, res.api_key);
  if (ctx.json) return ctx.printJson({ ...res, stored: opts.store });
  ctx.out(
    res.rotated
      ? `Rotated your account key: the old one no longer works. New key ${res.id}:`
      : `Created your account key ${res.id}:`,
  );
  ctx.out();
  ctx.out(`  ${res.api_key}`);
  ctx.out();
  ctx.out('Save it now: it is not shown again. MCP clients send it as X-Api-Key (SVC_ACCOUNT_KEY).');
  if (opts.store) ctx.out(`Stored in ${storeName(ctx)} for this daemon.`);
}

export function accountKeyRotateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('rotate')
    .description('create or replace your account key (ak_)')
    .option('--no-store', 'only print the key; do not keep it in the credential store');
  return action(cmd, makeCtx, (ctx, flags) => runAccountKeyRotate({ store: flags.store !== false }, ctx));
}
