import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { invalid } from '../domain-error.js';
import { validate } from '../http/validate.js';
import { type SignupResult, StoreConflict, type UserRecord } from '../store/types.js';
import { sendAfterAnswer, sendSignupAttemptNotice, sendVerifyCode } from './account-mail.js';
import { issueEmailCode, normalizeEmail } from './email-codes.js';
import { hashInvitationCode, hashInviteCode } from './invite-codes.js';
import { enforceLimit, type AuthLimits } from './limits.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { issueSession } from './session-issuer.js';
import { signToken } from './tokens.js';
import { signupBody } from '../../shared/schemas/auth.js';

const inviteRefused = () => invalid('The invite code is unknown or was used already.', ErrorCode.inviteInvalid);

/**
 * POST /api/auth/signup {email, password, invite_code} → { ok, token, pending_verification: true }.
 *
 * A taken e-mail gets the very same answer (SECURITY.md: no enumeration): the token is a signed
 * decoy naming no session, the invite is left unspent (it is consumed only when an account is
 * made), and the address's owner is told that someone tried. The password is hashed on both paths
 * so the scrypt work does not tell them apart, and the mail of either path is sent after the answer.
 */
export function signup(deps: Deps, limits: AuthLimits): Middleware {
  return async (ctx) => {
    const input = validate(signupBody, ctx.request.body);
    const email = normalizeEmail(input.email);
    await enforceLimit(limits.mailAddress, ctx.ip);
    const problem = passwordProblem(input.password);
    if (problem) throw invalid(problem, ErrorCode.passwordInvalid);
    // A bad invite creates nothing and sends nothing, whatever the e-mail: checked before the e-mail matters.
    const inviteHash = hashInviteCode(input.invite_code);
    const invite = await deps.stores.invites.find(inviteHash);
    // Or a Company's invitation to this very address: it admits its invitee, who joins once verified.
    const invitation = invite && !invite.used_at ? null : await invitationFor(deps, input.invite_code, email);
    if ((!invite || invite.used_at) && !invitation) throw inviteRefused();
    // Drawn only with a valid invite, so strangers cannot drain an address's code bucket through signup.
    await enforceLimit(
      limits.signupEmail,
      email,
      'A code was sent to this address moments ago. Wait a minute before asking again.',
    );
    // The code this signup may send counts in the {email} resend bucket too (spec: resend shares the
    // signup's bucket), on both paths alike; a full bucket does not stop the signup.
    await limits.resendEmail.hit(email);

    const passwordHash = await hashPassword(input.password, deps.config.auth.passwordHash);
    const now = isoAt(deps.clock.now());
    const user: UserRecord = {
      id: deps.ids('usr'),
      email,
      tier: deps.config.defaultTier,
      created_at: now,
      email_verified_at: null,
      password_hash: passwordHash,
      password_changed_at: now,
      ...(invitation ? { joining_invitation: invitation } : {}),
    };
    const result = invitation
      ? await createInvited(deps, user)
      : await deps.stores.users.createWithInvite(user, inviteHash, now);
    if (result === 'invite_invalid') throw inviteRefused(); // spent by a concurrent signup meanwhile
    if (result === 'email_taken') {
      sendAfterAnswer(deps, ctx, 'signup attempt notice', () => sendSignupAttemptNotice(deps, email));
      ctx.body = { ok: true, token: decoyToken(deps, email), pending_verification: true };
      return;
    }
    // The new account's own resend bucket starts with this code in it: a resend right after is a 429.
    await limits.resendAccount.hit(user.id);
    const { code } = await issueEmailCode(deps, { purpose: 'verify', email, userId: user.id });
    const { token } = await issueSession(deps, { user, kind: 'unverified', method: ['signup'], ctx });
    sendAfterAnswer(deps, ctx, 'signup code', () => sendVerifyCode(deps, email, code!));
    ctx.body = { ok: true, token, pending_verification: true };
  };
}

/**
 * The hash of a pending, unexpired Company invitation with this code sent to this address, or null.
 * Any other invitation answers like an unknown invite code. The account keeps the hash until it is
 * verified (verify.ts accepts it then), so an unverified address never joins a Company.
 */
async function invitationFor(deps: Deps, code: string, email: string): Promise<string | null> {
  const hash = hashInvitationCode(code);
  const found = await deps.stores.members.findInvitation(hash);
  if (!found || found.email !== email || Date.parse(found.expires_at) <= deps.clock.now()) return null;
  return hash;
}

async function createInvited(deps: Deps, user: UserRecord): Promise<SignupResult> {
  try {
    await deps.stores.users.create(user);
    return 'created';
  } catch (err) {
    if (err instanceof StoreConflict && err.reason === 'email_taken') return 'email_taken';
    throw err;
  }
}

/** Looks like a real unverified token, but names a session that never existed: it opens nothing. */
function decoyToken(deps: Deps, email: string): string {
  const claims = { user_id: deps.ids('usr'), email, sid: deps.ids('ses'), typ: 'unverified' as const, amr: ['signup'] };
  return signToken(deps.secrets.jwtSecret, claims, deps.clock.now(), deps.config.auth.sessionTtlMs);
}
