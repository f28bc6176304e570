import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { promptLine, promptSecret, readStdinLines, requireInteractive, withRetries } from '../../prompt.js';
import { refusedAs, withLoginHint } from '../../login-errors.js';
import { currentToken, saveLogin } from '../../session.js';
import { readTokenClaims } from '../../token-claims.js';
import { addFactorLoginFlags, factorOptionsOf, runFactorLogin } from './login-factors.js';
import { runWebLogin } from './login-web.js';

export interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
  /** The 6-digit TOTP code, when the account has two-factor login (else asked for on a terminal). */
  otp?: string;
}

type LoginAnswer = {
  ok: boolean;
  token?: string;
  pending_verification?: boolean;
  totp_required?: boolean;
  partial_token?: string;
};

/** `svc login`: e-mail + password (typed without echo, or --password-stdin; never a flag). */
export async function runLogin(opts: LoginOptions, ctx: CliContext): Promise<void> {
  // The profile's last login names the account (its token says which, even once expired): offered
  // as the answer on a terminal, taken as it is when the password comes from stdin.
  const known = opts.email ? undefined : readTokenClaims(await currentToken(ctx)).email;
  let email = opts.email ?? (opts.passwordStdin ? known : undefined);
  if (!email) {
    requireInteractive(ctx, 'the e-mail address', 'pass --email');
    email = await promptLine(ctx, 'E-mail: ', undefined, known);
  }
  const send = (password: string) =>
    ctx.api().post<LoginAnswer>('/api/auth/login', { email, password }, { token: null });
  let res: LoginAnswer;
  try {
    if (opts.passwordStdin) res = await send((await readStdinLines(ctx, 1, 'the password'))[0]!);
    else {
      requireInteractive(ctx, 'the password', 'pipe it in with --password-stdin');
      // A mistyped password is asked again (3 tries), as a terminal login does.
      res = await withRetries(ctx, () => promptSecret(ctx, 'Password: '), send, refusedAs('invalid_credentials'));
    }
    if (res.totp_required && res.partial_token) res = await completeTotp(ctx, res.partial_token, opts.otp);
  } catch (err) {
    throw withLoginHint(err);
  }
  await saveLogin(ctx, res.token!);
  if (ctx.json) return ctx.printJson({ ok: true, email, pending_verification: Boolean(res.pending_verification) });
  if (res.pending_verification) {
    ctx.out(`Logged in as ${email}, but the address is not verified yet.`);
    ctx.err('next: svc verify --code <code>   (a new code: svc verify --resend)');
    return;
  }
  ctx.out(`Logged in as ${email}.`);
}

/** The second step of a two-factor login (spec §3.3): the partial token plus the authenticator's code. */
async function completeTotp(ctx: CliContext, partialToken: string, otp?: string): Promise<LoginAnswer> {
  const send = (code: string) =>
    ctx
      .api()
      .post<LoginAnswer>('/api/auth/totp/login', { partial_token: partialToken, code: code.trim() }, { token: null });
  if (otp) return send(otp);
  if (!ctx.interactive) throw new UsageError('this account needs a two-factor code', 'pass --totp-code <6 digits>');
  return withRetries(
    ctx,
    () => promptSecret(ctx, 'Two-factor code: '),
    send,
    refusedAs('totp_invalid_code', 'invalid_code'),
  );
}

/** `svc login`: the password by default; `--email-code` and `--wallet` are the passwordless ways (login-factors.ts). */
export function loginCommand(makeCtx: ContextFactory): Command {
  const cmd = addFactorLoginFlags(
    new Command('login')
      .description('log in: e-mail and password (default), an e-mailed code (--email-code) or a wallet (--wallet)')
      .option('--email <email>', 'your e-mail address')
      .option('--password-stdin', 'read the password from stdin instead of asking')
      .option('--web', 'log in through the web console: approve a pairing code in the browser (login-web.ts)'),
  );
  return action(cmd, makeCtx, (ctx, flags) =>
    flags.web
      ? runWebLogin(ctx)
      : flags.emailCode || flags.wallet
        ? runFactorLogin(factorOptionsOf(flags), ctx)
        : runLogin({ email: flags.email, passwordStdin: flags.passwordStdin, otp: flags.totpCode }, ctx),
  );
}
