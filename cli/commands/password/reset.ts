import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { promptLine, promptNewPassword, readStdinLines, requireInteractive } from '../../prompt.js';
import { forgetLogin } from '../../session.js';

/** `svc password reset --token T`: sets a new password from the e-mailed link; every session ends. */
export async function runPasswordReset(
  opts: { token?: string; passwordStdin?: boolean },
  ctx: CliContext,
): Promise<void> {
  let token = opts.token;
  if (!token) {
    requireInteractive(ctx, 'the reset token', 'pass --token (the token= part of the e-mailed link)');
    token = await promptLine(ctx, 'Reset token (or the whole link): ');
  }
  // Accept the whole link as pasted from the e-mail, not just its token.
  const fromLink = /[?&]token=([^&\s]+)/.exec(token);
  if (fromLink) token = fromLink[1]!;
  let password: string;
  if (opts.passwordStdin) password = (await readStdinLines(ctx, 1, 'the new password'))[0]!;
  else {
    requireInteractive(ctx, 'the new password', 'pipe it in with --password-stdin');
    password = await promptNewPassword(ctx, 'New password');
  }
  const res = await ctx
    .api()
    .post<{ ok: boolean; revoked_sessions: number }>('/api/auth/reset-password', { token, password }, { token: null });
  await forgetLogin(ctx); // every session ended with the reset, this machine's included
  if (ctx.json) return ctx.printJson(res);
  ctx.out('Password reset. Every session was ended: log in again with svc login.');
}

export function passwordResetCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('reset')
    .description('set a new password with the token from the reset e-mail')
    .option('--token <token>', 'the token from the e-mailed link (or the whole link)')
    .option('--password-stdin', 'read the new password from stdin');
  return action(cmd, makeCtx, (ctx, flags) =>
    runPasswordReset({ token: flags.token, passwordStdin: flags.passwordStdin }, ctx),
  );
}
