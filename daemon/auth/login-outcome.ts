import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import type { UserRecord } from '../store/types.js';
import { issueSession, type AuthMethod } from './session-issuer.js';
import { startPartialLogin } from './totp/partial-login.js';
import { totpEnabled } from './totp/totp-codes.js';

/** What a first-factor login answers (spec §4.2): a session, or the TOTP step when the account has TOTP on. */
export type LoginOutcome = { ok: true; token: string } | { ok: true; totp_required: true; partial_token: string };

/**
 * Called by every first-factor login (password today) once the factor checked out. The one place
 * that decides whether a second factor is due before a session is issued.
 */
export async function completeFirstFactor(
  deps: Deps,
  ctx: Pick<Context, 'get' | 'ip'>,
  user: UserRecord,
  method: AuthMethod[],
): Promise<LoginOutcome> {
  // With TOTP on, the password alone earns no session: only a partial token for /api/auth/totp/login.
  if (totpEnabled(user))
    return { ok: true, totp_required: true, partial_token: await startPartialLogin(deps, user, method) };
  const { token } = await issueSession(deps, { user, kind: 'full', method, ctx });
  return { ok: true, token };
}
