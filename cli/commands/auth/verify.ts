import { Command } from '../../command-spec.js';
import type { MailListResponse } from '../../../shared/wire.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError, UsageError } from '../../errors.js';
import { operatorApi } from '../../operator.js';
import { promptLine, requireInteractive, withRetries } from '../../prompt.js';
import { ApiRequestError } from '../../errors.js';
import { currentToken, saveLogin } from '../../session.js';
import { readTokenClaims } from '../../token-claims.js';

export interface VerifyOptions {
  email?: string;
  code?: string;
  /** Read the code from a local daemon's captured mail (its operator token, as `svc mail` does). */
  fromMail?: boolean;
  data?: string;
}

/** `svc verify`: enters the e-mailed code and keeps the verified login that comes back. */
export async function runVerify(opts: VerifyOptions, ctx: CliContext): Promise<void> {
  const email = opts.email ?? readTokenClaims(await currentToken(ctx)).email ?? (await askEmail(ctx));
  const send = (code: string) =>
    ctx.api().post<{ ok: boolean; token: string }>('/api/auth/verify', { email, code }, { token: null });
  const given = opts.code ?? (opts.fromMail ? await codeFromMail(ctx, email, opts.data) : null);
  // A typed code that is wrong is asked again (3 tries).
  const res = given ? await send(given) : await withRetries(ctx, () => askCode(ctx), send, isWrongCode);
  await saveLogin(ctx, res.token);
  if (ctx.json) return ctx.printJson({ ok: true, email, verified: true });
  ctx.out(`Verified ${email}. You are logged in.`);
}

/**
 * The newest code a local daemon "sent" to `email`. The daemon mails it just after answering the
 * signup (so known and unknown addresses answer alike): a verify run right after may wait a moment.
 */
export async function codeFromMail(ctx: CliContext, email: string, dataDir?: string, waitMs = 10_000): Promise<string> {
  const api = operatorApi(ctx, dataDir);
  const deadline = ctx.now() + waitMs;
  for (;;) {
    const { mail } = await api.get<MailListResponse>('/api/dev/mail', { query: { to: email } });
    const code = mail.filter((m) => m.code).at(-1)?.code;
    if (code) return code;
    if (ctx.now() >= deadline)
      throw new FailedError(
        `no code in the mail to ${email} yet`,
        "ask for a new one with 'svc verify --resend' or check 'svc mail'",
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function askEmail(ctx: CliContext): Promise<string> {
  requireInteractive(ctx, 'the e-mail address', 'pass --email');
  return promptLine(ctx, 'E-mail: ');
}

const isWrongCode = (err: unknown) => err instanceof ApiRequestError && err.code === 'invalid_code';

async function askCode(ctx: CliContext): Promise<string> {
  if (!ctx.interactive)
    throw new UsageError('no code given', 'pass --code <6 digits>, or --from-mail on a local daemon');
  return promptLine(ctx, '6-digit code from the e-mail (or rerun with --from-mail on a local daemon): ');
}

/** `svc verify --resend`: a new code (the old one stops working); uses the stored signup login or --email. */
export async function runResend(opts: { email?: string }, ctx: CliContext): Promise<void> {
  const token = opts.email ? null : await currentToken(ctx);
  if (!token && !opts.email) throw new UsageError('no signup login stored', 'pass --email');
  const res = await ctx
    .api()
    .post<{ ok: boolean; message: string }>('/api/auth/resend-code', token ? {} : { email: opts.email }, { token });
  if (ctx.json) return ctx.printJson(res);
  ctx.out(res.message);
}

export function verifyCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('verify')
    .description('confirm your e-mail address with the 6-digit code')
    .option('--email <email>', 'the address (default: the one you signed up with)')
    .option('--code <code>', 'the 6-digit code')
    .option('--from-mail', "read the code from a local daemon's captured mail (like 'svc mail')")
    .option('--data <dir>', 'data folder of the local daemon, for --from-mail')
    .option('--resend', 'ask for a new code instead (the old one stops working)');
  return action(cmd, makeCtx, (ctx, flags) =>
    flags.resend
      ? runResend({ email: flags.email }, ctx)
      : runVerify({ email: flags.email, code: flags.code, fromMail: flags.fromMail, data: flags.data }, ctx),
  );
}
