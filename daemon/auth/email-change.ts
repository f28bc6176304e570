import { findUserByEmail } from './find-account.js';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import {
  sendEmailChangeCode,
  sendEmailChangeNotice,
  sendEmailChangeTakenNotice,
  sendInBackground,
} from './account-mail.js';
import { codeRefusal } from './code-errors.js';
import { consumeEmailCode, issueEmailCode, normalizeEmail } from './email-codes.js';
import { enforceLimit, type AuthLimits } from './limits.js';
import { confirmPassword } from './password-change.js';
import { issueSession, type AuthMethod } from './session-issuer.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { conflicting, invalid } from '../domain-error.js';
import { userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import { StoreConflict, type UserRecord } from '../store/types.js';
import { emailChangeBeginBody as beginBody, emailChangeFinishBody as finishBody } from '../../shared/schemas/auth.js';

/**
 * POST /api/me/email/change/begin {new_email, password} → { ok, pending_email }. A code goes to the
 * new address (proving it is the user's), a notice to the old one. An address that belongs to
 * another account gets a notice instead of a code, with the same answer here, so the route does not
 * reveal who has an account; the change then can never finish.
 */
export function beginEmailChange(deps: Deps, limits: AuthLimits): Middleware {
  return async (ctx) => {
    const { user } = userOf(ctx);
    const input = validate(beginBody, ctx.request.body);
    const newEmail = normalizeEmail(input.new_email);
    if (!(await confirmPassword(deps, limits, user, input.password)))
      throw invalid('The password is wrong.', ErrorCode.invalidCredentials);
    if (newEmail === user.email)
      throw invalid('This is already the e-mail address of your account.', ErrorCode.sameEmail);
    await enforceLimit(limits.mailAddress, ctx.ip);
    await enforceLimit(
      limits.recoveryEmail,
      `change:${newEmail}`,
      'A code was sent to this address moments ago. Wait a minute before asking again.',
    );
    await deps.stores.users.update(user.id, (u) => {
      u.pending_email = newEmail;
    });
    const owner = await findUserByEmail(deps.stores.users, input.new_email);
    if (owner) {
      sendInBackground(deps, 'e-mail change: address taken', () => sendEmailChangeTakenNotice(deps, newEmail));
      await deps.stores.codes.endAll('email_change', user.id, isoAt(deps.clock.now()));
    } else {
      const { code } = await issueEmailCode(deps, { purpose: 'email_change', email: newEmail, userId: user.id });
      await sendEmailChangeCode(deps, newEmail, code!);
    }
    if (user.email)
      sendInBackground(deps, 'e-mail change notice', () => sendEmailChangeNotice(deps, user.email!, newEmail, false));
    ctx.body = {
      ok: true,
      pending_email: newEmail,
      message: `Enter the 6-digit code sent to ${newEmail} (POST /api/me/email/change/finish).`,
    };
  };
}

/**
 * POST /api/me/email/change/finish {code} → { ok, email, token }. The account moves to the new
 * address atomically (refused if another account took it meanwhile). The old address no longer
 * logs in; every session ends, because their tokens name the old address, and a fresh one is returned.
 */
export function finishEmailChange(deps: Deps): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    const input = validate(finishBody, ctx.request.body);
    const pending = user.pending_email;
    if (!pending)
      throw invalid(
        'No e-mail change is waiting: start one with POST /api/me/email/change/begin.',
        ErrorCode.noEmailChange,
      );
    const attempt = await consumeEmailCode(deps, 'email_change', pending, input.code);
    if (!attempt.ok) throw codeRefusal(attempt.reason);
    if (attempt.record.user_id !== user.id) throw codeRefusal('wrong');
    const now = isoAt(deps.clock.now());
    // `user` is the live record: read the old address before the update rewrites it.
    const oldEmail = user.email;
    let updated: UserRecord | undefined;
    try {
      updated = await deps.stores.users.update(user.id, (u) => {
        u.email = pending;
        u.pending_email = null;
        u.email_verified_at = now;
      });
    } catch (err) {
      if (err instanceof StoreConflict)
        throw conflicting('Another account uses this address now; the change was not made.', ErrorCode.emailTaken);
      throw err;
    }
    await deps.stores.sessions.revokeAll(user.id, now);
    await deps.stores.codes.endAll('password_reset', user.id, now);
    const { token } = await issueSession(deps, {
      user: updated!,
      kind: 'full',
      method: session.method as AuthMethod[],
      ctx,
    });
    if (oldEmail)
      sendInBackground(deps, 'e-mail changed notice', () => sendEmailChangeNotice(deps, oldEmail, pending, true));
    ctx.body = { ok: true, email: pending, token };
  };
}
