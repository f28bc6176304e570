import { findUserByEmail } from './find-account.js';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { invalid } from '../domain-error.js';
import { validate } from '../http/validate.js';
import { sendAfterAnswer, sendInBackground, sendPasswordChangedNotice, sendResetLink } from './account-mail.js';
import { consumeLinkToken, issueEmailCode, normalizeEmail } from './email-codes.js';
import { enforceLimit, type AuthLimits } from './limits.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { forgotPasswordBody as forgotBody, resetPasswordBody as resetBody } from '../../shared/schemas/auth.js';

/**
 * POST /api/auth/forgot-password {email} → the same 200 for known and unknown addresses. A known
 * one gets a single-use reset link (256 random bits, hashed at rest, 30 min), made and sent after
 * the answer, so the answer time does not tell the two apart either.
 */
export function forgotPassword(deps: Deps, limits: AuthLimits): Middleware {
  return async (ctx) => {
    const input = validate(forgotBody, ctx.request.body);
    const email = normalizeEmail(input.email);
    await enforceLimit(limits.mailAddress, ctx.ip);
    await enforceLimit(
      limits.recoveryEmail,
      email,
      'A reset link was sent to this address moments ago. Wait a minute before asking again.',
    );
    const user = await findUserByEmail(deps.stores.users, input.email);
    if (user) {
      sendAfterAnswer(deps, ctx, 'reset link', async () => {
        const { linkToken } = await issueEmailCode(deps, {
          purpose: 'password_reset',
          email,
          userId: user.id,
          withCode: false,
          withLink: true,
          ttlMs: deps.config.auth.resetTtlMs,
        });
        await sendResetLink(deps, email, linkToken!);
      });
    }
    ctx.body = {
      ok: true,
      message: `If ${email} has an account, a reset link is on its way. It is valid for 30 minutes.`,
    };
  };
}

/**
 * POST /api/auth/reset-password {token, password} → { ok, revoked_sessions }. Revokes every session
 * (SECURITY.md) and gives no new one: the user logs in, through their second factor if they have one.
 * The link also proves the mailbox, so an account that never entered its signup code is verified by it.
 */
export function resetPassword(deps: Deps): Middleware {
  return async (ctx) => {
    const input = validate(resetBody, ctx.request.body);
    // Refuse a bad new password before the token is spent, so the user can try again with the same link.
    const problem = passwordProblem(input.password);
    if (problem) throw invalid(problem, ErrorCode.passwordInvalid);
    const passwordHash = await hashPassword(input.password, deps.config.auth.passwordHash);
    const record = await consumeLinkToken(deps, 'password_reset', input.token);
    const user = record?.user_id ? await deps.stores.users.findById(record.user_id) : undefined;
    // The link was for the address the account had then; after an e-mail change it is void.
    if (!record || !user || user.email !== record.email) {
      throw invalid('This reset link is invalid, used or expired. Ask for a new one.', ErrorCode.resetTokenInvalid);
    }
    const now = isoAt(deps.clock.now());
    const revoked = await deps.stores.users.setPassword(user.id, passwordHash, now, null, (u) => {
      u.email_verified_at ??= now;
    });
    // Whoever knew the old password may have connected apps over OAuth: they end with the sessions.
    await deps.stores.oauth.removeGrantsOfUser(user.id);
    sendInBackground(deps, 'password reset notice', () => sendPasswordChangedNotice(deps, record.email, 'reset'));
    ctx.body = { ok: true, revoked_sessions: revoked ?? 0 };
  };
}
