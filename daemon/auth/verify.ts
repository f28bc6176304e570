import { findUserByEmail } from './find-account.js';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { conflicting, invalid } from '../domain-error.js';
import { bearerToken } from '../http/bearer.js';
import { requireUser, userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import { sendAfterAnswer, sendVerifyCode } from './account-mail.js';
import { codeRefusal } from './code-errors.js';
import { consumeEmailCode, issueEmailCode, normalizeEmail } from './email-codes.js';
import { enforceLimit, type AuthLimits } from './limits.js';
import { resendCodeBody as resendBody, verifyBody } from '../../shared/schemas/auth.js';
import { issueSession } from './session-issuer.js';
import type { UserRecord } from '../store/types.js';

/**
 * POST /api/auth/verify {email, code} → { ok, token }: the signup code moves the account to
 * verified. Every earlier session of the account was unverified; they end, and a fresh full one starts.
 */
export function verifyEmail(deps: Deps): Middleware {
  return async (ctx) => {
    const input = validate(verifyBody, ctx.request.body);
    const attempt = await consumeEmailCode(deps, 'verify', input.email, input.code);
    if (!attempt.ok) throw codeRefusal(attempt.reason);
    const now = isoAt(deps.clock.now());
    const user = await deps.stores.users.update(attempt.record.user_id ?? '', (u) => {
      u.email_verified_at ??= now;
    });
    if (!user || user.email !== attempt.record.email) throw codeRefusal('wrong');
    await deps.stores.sessions.revokeAll(user.id, now);
    const { token } = await issueSession(deps, { user, kind: 'full', method: ['verify'], ctx });
    const joined = await joinInvitedCompany(deps, user, now);
    ctx.body = { ok: true, token, ...(joined ? { joined } : {}) };
  };
}

/**
 * An account that signed up with a Company's invitation joins that Company once its address is
 * proven. An invitation revoked or expired meanwhile joins nothing; the account stays as it is.
 */
async function joinInvitedCompany(deps: Deps, user: UserRecord, now: string) {
  const hash = user.joining_invitation;
  if (typeof hash !== 'string' || !user.email) return null;
  const outcome = await deps.stores.members.acceptInvitation(hash, user.id, user.email, now);
  await deps.stores.users.update(user.id, (u) => void delete u.joining_invitation);
  return outcome.ok
    ? { company: { id: outcome.company.id, name: outcome.company.name }, role: outcome.membership.role }
    : null;
}

/**
 * POST /api/auth/resend-code: a new signup code, which ends the old one. Takes the unverified
 * signup token (Authorization: Bearer) or `{email}`, and the two draw on different buckets: the
 * token's is the account's own (signup counted one in it), which nobody without that session can
 * spend; `{email}` is open to anyone, so it has a per-address bucket of the same shape, drawn
 * whether or not an account waits there. A stranger asking by `{email}` can therefore use up only
 * the `{email}` form, never the owner's resend. With `{email}` the answer is the same whether or
 * not an account waits for verification there.
 */
export function resendCode(deps: Deps, limits: AuthLimits): Middleware {
  const guard = requireUser(deps, { allowUnverified: true });
  return async (ctx) => {
    const input = validate(resendBody, ctx.request.body);
    await enforceLimit(limits.mailAddress, ctx.ip);
    if (bearerToken(ctx)) {
      await guard(ctx, async () => {});
      const { user } = userOf(ctx);
      if (user.email_verified_at || !user.email)
        throw conflicting('This account is verified already.', ErrorCode.alreadyVerified);
      await enforceLimit(limits.resendAccount, user.id, RESENT_MOMENTS_AGO);
      await sendNewCode(deps, user.id, user.email);
      ctx.body = { ok: true, message: `A new code was sent to ${user.email}.` };
      return;
    }
    if (!input.email)
      throw invalid('Send the signup token (Authorization: Bearer) or {"email": "..."}.', ErrorCode.validationFailed);
    const email = normalizeEmail(input.email);
    await enforceLimit(limits.resendEmail, email, RESENT_MOMENTS_AGO);
    const user = await findUserByEmail(deps.stores.users, input.email);
    if (user && !user.email_verified_at)
      sendAfterAnswer(deps, ctx, 'resend code', () => sendNewCode(deps, user.id, email));
    ctx.body = { ok: true, message: `If ${email} has an account waiting for verification, a new code is on its way.` };
  };
}

const RESENT_MOMENTS_AGO = 'A code was sent to this address moments ago. Wait a minute before asking again.';

async function sendNewCode(deps: Deps, userId: string, email: string) {
  const { code } = await issueEmailCode(deps, { purpose: 'verify', email, userId });
  await sendVerifyCode(deps, email, code!);
}
