import { ErrorCode, type ErrorCodeName } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { forbidden } from '../domain-error.js';
import type { SessionRecord } from '../store/types.js';

/**
 * When the login a session descends from happened (ms), or null when that is unknown. A session
 * made by a pairing carries its approver's login time (`auth_at`), so copying a session never
 * makes a fresh login. Rows from before `auth_at` existed fall back to their creation, except
 * paired ones: their creation was no login, so they never count as recent.
 */
export function loginTimeOf(session: SessionRecord): number | null {
  if (session.auth_at) return Date.parse(session.auth_at);
  return session.method.includes('pairing') ? null : Date.parse(session.created_at);
}

/**
 * Some changes outlive every session: a passkey survives revocation and password resets, and a
 * TOTP app only the caller holds locks everyone else out; an approved pairing hands out a new
 * session. A stolen or left-open session must not be enough for them, so they need a session from
 * a recent login (GitHub's "sudo mode", in short). `code` names the refusal for the route's callers.
 */
export function assertRecentLogin(
  deps: Pick<Deps, 'clock' | 'config'>,
  session: SessionRecord,
  action: string,
  code: ErrorCodeName = ErrorCode.recentLoginRequired,
): void {
  const recentMs = deps.config.auth.factors.recentLoginMs;
  const loggedInAt = loginTimeOf(session);
  if (loggedInAt !== null && deps.clock.now() - loggedInAt <= recentMs) return;
  throw forbidden(
    `${action} needs a recent login: log in again, then do it within ${Math.round(recentMs / 60_000)} minutes.`,
    code,
  );
}
