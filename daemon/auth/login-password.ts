import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { unauthenticated } from '../domain-error.js';
import { validate } from '../http/validate.js';
import type { UserRecord } from '../store/types.js';
import { normalizeEmail } from './email-codes.js';
import { attemptUnlocked, enforceLimit, type AuthLimits } from './limits.js';
import { completeFirstFactor } from './login-outcome.js';
import { dummyHash, verifyPassword } from './passwords.js';
import { upgradeWeakHash } from './password-upgrade.js';
import { issueSession } from './session-issuer.js';
import { findUserByEmail } from './find-account.js';
import { loginBody } from '../../shared/schemas/auth.js';

/** One answer for "no such e-mail" and "wrong password" (SECURITY.md attack case 6). */
const invalidCredentials = () => unauthenticated('The e-mail or password is incorrect.', ErrorCode.invalidCredentials);

/**
 * POST /api/auth/login and its alias /api/auth/login/email {email, password} → { ok, token }
 * (or the TOTP step, decided by completeFirstFactor). Throttled per client address and per
 * account; an unknown e-mail costs the same scrypt work and counts toward the same ceiling.
 */
export function loginWithPassword(deps: Deps, limits: AuthLimits): Middleware {
  return async (ctx) => {
    const input = validate(loginBody, ctx.request.body);
    const email = normalizeEmail(input.email);
    await enforceLimit(limits.loginAddress, ctx.ip);
    // One attempt under the per-account ceiling: a wrong password counts, a right one clears the
    // count, and parallel attempts past the ceiling's headroom wait for the ones in flight, so a
    // burst of guesses gets no more tries than the ceiling allows and a burst of right ones no lock-out.
    const user = await attemptUnlocked(
      limits.failures,
      `pwd:${email}`,
      () => checkPassword(deps, input.email, input.password),
      Boolean,
    );
    if (!user) throw invalidCredentials();
    await upgradeWeakHash(deps, user, input.password);
    if (!user.email_verified_at) {
      // The password is right but the signup code was never entered: a session that reaches only verify and resend.
      const { token } = await issueSession(deps, { user, kind: 'unverified', method: ['pwd'], ctx });
      ctx.body = { ok: true, token, pending_verification: true };
      return;
    }
    ctx.body = await completeFirstFactor(deps, ctx, user, ['pwd']);
  };
}

/** The user when `password` is theirs; null otherwise, after the same scrypt work either way. */
async function checkPassword(
  deps: Pick<Deps, 'stores' | 'config'>,
  email: string,
  password: string,
): Promise<UserRecord | null> {
  const user = await findUserByEmail(deps.stores.users, email);
  const stored = user?.password_hash ?? (await dummyHash(deps.config.auth.passwordHash));
  const ok = await verifyPassword(password, stored, deps.config.auth.passwordHash.maxmem);
  return ok && user?.password_hash ? user : null;
}
