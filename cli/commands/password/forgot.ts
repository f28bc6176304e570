import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { promptLine, requireInteractive } from '../../prompt.js';

/** `svc password forgot`: e-mails a reset link (the answer is the same whether the account exists). */
export async function runPasswordForgot(opts: { email?: string }, ctx: CliContext): Promise<void> {
  let email = opts.email;
  if (!email) {
    requireInteractive(ctx, 'the e-mail address', 'pass --email');
    email = await promptLine(ctx, 'E-mail: ');
  }
  const res = await ctx
    .api()
    .post<{ ok: boolean; message: string }>('/api/auth/forgot-password', { email }, { token: null });
  if (ctx.json) return ctx.printJson(res);
  ctx.out(res.message);
  ctx.err('next: svc password reset --token <token from the e-mail>');
}

export function passwordForgotCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('forgot')
    .description('e-mail yourself a password-reset link')
    .option('--email <email>', 'your e-mail address');
  return action(cmd, makeCtx, (ctx, flags) => runPasswordForgot({ email: flags.email }, ctx));
}
