import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { promptNewPassword, promptSecret, readStdinLines, requireInteractive } from '../../prompt.js';
import { requireToken } from '../../session.js';

/** `svc password change`: current + new password; keeps this login, ends the others. */
export async function runPasswordChange(opts: { passwordStdin?: boolean }, ctx: CliContext): Promise<void> {
  const token = await requireToken(ctx);
  let current: string;
  let next: string;
  if (opts.passwordStdin)
    [current, next] = (await readStdinLines(ctx, 2, 'the current and the new password')) as [string, string];
  else {
    requireInteractive(ctx, 'the passwords', 'pipe "current\\nnew" in with --password-stdin');
    current = await promptSecret(ctx, 'Current password: ');
    next = await promptNewPassword(ctx, 'New password');
  }
  const res = await ctx
    .api()
    .post<{ ok: boolean; revoked_sessions: number }>(
      '/api/auth/change-password',
      { current_password: current, new_password: next },
      { token },
    );
  if (ctx.json) return ctx.printJson(res);
  ctx.out(
    `Password changed. ${res.revoked_sessions} other session${res.revoked_sessions === 1 ? '' : 's'} ended; this one stays.`,
  );
}

export function passwordChangeCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('change')
    .description('change your password (ends your other sessions)')
    .option('--password-stdin', 'read the current and the new password from stdin, one per line');
  return action(cmd, makeCtx, (ctx, flags) => runPasswordChange({ passwordStdin: flags.passwordStdin }, ctx));
}
