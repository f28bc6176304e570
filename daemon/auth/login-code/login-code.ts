import type { Context } from 'koa';
import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import type { NewMail, UserRecord } from '../../store/types.js';
import { consumeEmailCode, consumeLinkToken, issueEmailCode } from '../email-codes.js';
import { completeFirstFactor, type LoginOutcome } from '../login-outcome.js';
import { findUserByEmail } from '../find-account.js';

/** The magic link's page on the daemon: `<public URL>/auth/magic?token=<link token>` (docs/auth.md). */
const magicLinkUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/auth/magic?token=${encodeURIComponent(token)}`;

/**
 * Stores a 6-digit code and a magic link, both in ONE row (spec §2.6): consuming either ends the
 * other in the same atomic step. An unknown address gets a row too, one nobody is ever sent, so
 * both cost the same store work; the caller answers the same either way and sends the returned
 * mail (known addresses only) after the answer, so the route does not reveal who has an account.
 */
export async function issueLoginCode(deps: Deps, email: string): Promise<NewMail | null> {
  const user = await findUserByEmail(deps.stores.users, email);
  const { code, linkToken } = await issueEmailCode(deps, {
    purpose: 'login',
    email: user?.email ?? email,
    userId: user?.email ? user.id : null,
    withLink: true,
  });
  if (!user?.email) return null;
  const link = magicLinkUrl(deps.config.publicUrl, linkToken!);
  return {
    to: user.email,
    subject: `Your svc login code: ${code}`,
    text: [
      `Your login code is ${code}. It works once, for 10 minutes.`,
      '',
      `Or open this link to log in: ${link}`,
      '',
      'Using either the code or the link ends both. If you did not ask to log in, ignore this message.',
    ].join('\n'),
    code,
    link,
  };
}

export type CodeLoginResult =
  | { ok: true; outcome: LoginOutcome }
  | { ok: false; reason: 'wrong' | 'burned' | 'expired' | 'no_code' };

/** A typed code: right code → the login outcome (a session, or the TOTP step when TOTP is on). */
export async function loginWithCode(
  deps: Deps,
  ctx: Pick<Context, 'get' | 'ip'>,
  email: string,
  code: string,
): Promise<CodeLoginResult> {
  const attempt = await consumeEmailCode(deps, 'login', email, code);
  if (!attempt.ok) return { ok: false, reason: attempt.reason };
  const user = attempt.record.user_id ? await markEmailProven(deps, attempt.record.user_id) : undefined;
  if (!user) return { ok: false, reason: 'no_code' };
  return { ok: true, outcome: await completeFirstFactor(deps, ctx, user, ['email_code']) };
}

/** A magic-link token: the same row as the code, so it fails once the code was used (and vice versa). */
export async function loginWithLink(
  deps: Deps,
  ctx: Pick<Context, 'get' | 'ip'>,
  token: string,
): Promise<LoginOutcome | null> {
  const record = await consumeLinkToken(deps, 'login', token);
  const user = record?.user_id ? await markEmailProven(deps, record.user_id) : undefined;
  if (!user) return null;
  return completeFirstFactor(deps, ctx, user, ['magic_link']);
}

/**
 * A consumed login code proves the mailbox, which is all that signup verification asks. On a
 * never-verified account this is also where pre-account-takeover is stopped: whoever signed up with
 * this address chose its password without proving the mailbox (it may be an attacker who knew the
 * victim would sign in by e-mail later), so that password and the unverified sessions end here.
 * The real owner sets a password through forgot-password.
 */
async function markEmailProven(deps: Deps, userId: string): Promise<UserRecord | undefined> {
  const user = await deps.stores.users.findById(userId);
  if (!user || user.email_verified_at) return user;
  const now = isoAt(deps.clock.now());
  let provenHere = false;
  const proven = await deps.stores.users.update(userId, (u) => {
    if (u.email_verified_at) return; // verified by a racing request in the meantime: nothing to undo
    u.email_verified_at = now;
    u.password_hash = null;
    provenHere = true;
  });
  if (provenHere) await deps.stores.sessions.revokeAll(userId, now);
  return proven;
}
