import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { invalid } from '../domain-error.js';
import { userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import type { UserRecord } from '../store/types.js';
import { sendInBackground, sendPasswordChangedNotice } from './account-mail.js';
import { attemptUnlocked, type AuthLimits } from './limits.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { changePasswordBody as changeBody } from '../../shared/schemas/auth.js';

/**
 * POST /api/auth/change-password {current_password, new_password} → { ok, revoked_sessions }.
 * Needs the current password even with a live session (a borrowed laptop must not be enough),
 * keeps the caller's session and ends every other one and any reset link still out.
 */
export function changePassword(deps: Deps, limits: AuthLimits): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    const input = validate(changeBody, ctx.request.body);
    const ok = await confirmPassword(deps, limits, user, input.current_password);
    if (!ok) throw invalid('The current password is wrong.', ErrorCode.invalidCredentials);
    const problem = passwordProblem(input.new_password);
    if (problem) throw invalid(problem, ErrorCode.passwordInvalid);
    const now = isoAt(deps.clock.now());
    const revoked = await deps.stores.users.setPassword(
      user.id,
      await hashPassword(input.new_password, deps.config.auth.passwordHash),
      now,
      session.id,
    );
    await deps.stores.codes.endAll('password_reset', user.id, now);
    // Apps the user connected over OAuth signed in with the old password: their tokens end too.
    await deps.stores.oauth.removeGrantsOfUser(user.id);
    if (user.email)
      sendInBackground(deps, 'password change notice', () => sendPasswordChangedNotice(deps, user.email!, 'change'));
    ctx.body = { ok: true, revoked_sessions: revoked ?? 0 };
  };
}

/**
 * Re-checks the password of a logged-in user (password change, e-mail change), counting failures
 * toward the same per-account ceiling as login, so a stolen session cannot guess it either.
 */
export async function confirmPassword(
  deps: Pick<Deps, 'config'>,
  limits: AuthLimits,
  user: UserRecord,
  password: string,
): Promise<boolean> {
  const check = async () =>
    Boolean(user.password_hash) &&
    (await verifyPassword(password, user.password_hash!, deps.config.auth.passwordHash.maxmem));
  return attemptUnlocked(limits.failures, `pwd:${user.email ?? user.id}`, check, (ok) => ok);
}
