import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { promptLine, promptNewPassword, readStdinLines, requireInteractive } from '../../prompt.js';
import { saveLogin } from '../../session.js';

export interface SignupOptions {
  email?: string;
  invite?: string;
  passwordStdin?: boolean;
}

/** `svc signup`: creates the account, keeps the (unverified) login, and says how to verify. */
export async function runSignup(opts: SignupOptions, ctx: CliContext): Promise<void> {
  const email = opts.email ?? (await ask(ctx, 'E-mail: ', 'an e-mail address', 'pass --email'));
  const invite =
    opts.invite ??
    (await ask(
      ctx,
      'Invite code: ',
      'an invite code',
      "pass --invite (a local daemon makes one with 'svc admin invite')",
    ));
  const password = opts.passwordStdin ? (await readStdinLines(ctx, 1, 'the password'))[0]! : await askNewPassword(ctx);
  const res = await ctx
    .api()
    .post<{ ok: boolean; token: string; pending_verification: boolean }>(
      '/api/auth/signup',
      { email, password, invite_code: invite },
      { token: null },
    );
  await saveLogin(ctx, res.token);
  if (ctx.json) return ctx.printJson({ ok: true, email, pending_verification: true });
  ctx.out(`Signed up as ${email}. We e-mailed a 6-digit code to confirm the address.`);
  ctx.err(`next: svc verify --email ${email} --code <code>   (on a local daemon: svc verify --from-mail)`);
}

async function ask(ctx: CliContext, question: string, what: string, hint: string): Promise<string> {
  requireInteractive(ctx, what, hint);
  return promptLine(ctx, question);
}

async function askNewPassword(ctx: CliContext): Promise<string> {
  requireInteractive(ctx, 'a password', 'pipe it in with --password-stdin');
  return promptNewPassword(ctx);
}

export function signupCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('signup')
    .description('create an account (asks for what is missing; e-mails a code to verify)')
    .option('--email <email>', 'your e-mail address')
    .option('--invite <code>', 'the invite code')
    .option('--password-stdin', 'read the password from stdin instead of asking');
  return action(cmd, makeCtx, (ctx, flags) =>
    runSignup({ email: flags.email, invite: flags.invite, passwordStdin: flags.passwordStdin }, ctx),
  );
}
