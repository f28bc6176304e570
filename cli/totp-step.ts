import type { CliContext } from './context.js';
import { ask } from './prompt.js';

/** What a first-factor login answers (spec §4.2). */
export type LoginAnswer = { ok: boolean; token?: string; totp_required?: boolean; partial_token?: string };

/**
 * Turns a login answer into a session token: when the account has TOTP, it sends the code from
 * `--totp-code`, or asks for it on a terminal (a recovery code works too), to /api/auth/totp/login.
 * Every login flow of the CLI (password, e-mail code, wallet) ends here.
 */
export async function finishLogin(ctx: CliContext, answer: LoginAnswer, totpCode?: string): Promise<string> {
  if (answer.token) return answer.token;
  const code =
    totpCode ??
    (await ask(ctx, 'Two-factor code (or a recovery code): ', { secret: true, flagHint: 'this account has two-factor authentication: pass --totp-code <code>' }));
  const done = await ctx.api().post<{ token: string }>('/api/auth/totp/login', { partial_token: answer.partial_token, code }, { token: null });
  return done.token;
}
