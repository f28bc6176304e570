import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { operatorApi } from '../../operator.js';

/** `svc admin invite`: a fresh single-use invite code from the local daemon. */
export async function runInvite(opts: { data?: string }, ctx: CliContext): Promise<void> {
  const { code } = await operatorApi(ctx, opts.data).post<{ code: string }>('/api/dev/invites');
  if (ctx.json) return ctx.printJson({ code });
  ctx.out(code);
  if (ctx.io.stdout.isTTY) ctx.err(`single use: svc signup --invite ${code}`);
}

export function inviteCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('invite')
    .description('create a single-use invite code')
    .option('--data <dir>', 'data folder of the local daemon');
  return action(cmd, makeCtx, (ctx, flags) => runInvite({ data: flags.data }, ctx));
}
