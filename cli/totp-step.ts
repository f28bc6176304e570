import type { CliContext } from './context.js';
import { refusedAs } from './login-errors.js';
import { ask, withRetries } from './prompt.js';

/** What a first-factor login answers (spec §4.2). */
export type LoginAnswer = { ok: boolean; token?: string; totp_required?: boolean; partial_token?: string };

/**
 * Turns a login answer into a session token: when the account has TOTP, it sends the code from
 * `--totp-code`, or asks for it on a terminal (a recovery code works too), to /api/auth/totp/login.
 * Every login flow of the CLI (password, e-mail code, wallet) ends here.
 */
export async function finishLogin(ctx: CliContext, answer: LoginAnswer, totpCode?: string): Promise<string> {
  if (answer.token) return answer.token;
  const send = async (code: string) =>
    (
      await ctx
        .api()
        .post<{ token: string }>('/api/auth/totp/login', { partial_token: answer.partial_token, code }, { token: null })
    ).token;
  if (totpCode) return send(totpCode);
  const question = () =>
    ask(ctx, 'Two-factor code (or a recovery code): ', {
      secret: true,
      flagHint: 'this account has two-factor authentication: pass --totp-code <code>',
    });
  // A mistyped code is asked again (3 tries; the partial token allows 5).
  return withRetries(ctx, question, send, refusedAs('totp_invalid_code'));
}
