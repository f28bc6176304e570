import type { Deps } from '../../deps.js';
import type { SessionRecord, UserRecord } from '../../store/types.js';
import { loginTimeOf } from '../recent-login.js';
import type { PairingRecord } from '../../store/pairing-store.js';

/** What an approval still stands on at collection: the approver's user, live session and login time. */
export interface ApprovalStanding {
  user: UserRecord;
  approver: SessionRecord;
  authAt: number;
}

/**
 * Whether an approved pairing may still become a session, read when the CLI collects it. The
 * approval speaks for the approving session, so it is worth no more than that session is now:
 * once that session is revoked or expired, or the password was reset (which ends every session)
 * or changed (which ends every session but the changer's, and the pairing's would have been one
 * of the others), the approval is void. Otherwise a stolen token could approve a pairing and
 * collect a fresh session after the victim's reset. Null when the approval no longer stands.
 */
export async function approvalStanding(
  deps: Pick<Deps, 'stores'>,
  record: PairingRecord,
  nowMs: number,
): Promise<ApprovalStanding | null> {
  if (!record.user_id || !record.approved_by_session) return null;
  const found = await deps.stores.sessions.findWithUser(record.approved_by_session);
  const approver = found?.session;
  const user = found?.user;
  if (
    !approver ||
    !user ||
    approver.user_id !== record.user_id ||
    user.id !== record.user_id ||
    approver.kind !== 'full' ||
    approver.revoked_at ||
    Date.parse(approver.expires_at) <= nowMs
  )
    return null;
  // An approval made before the snapshot existed has none (undefined): it is refused too.
  if ((user.password_changed_at ?? null) !== record.approver_password_changed_at) return null;
  const authAt = loginTimeOf(approver);
  return authAt === null ? null : { user, approver, authAt };
}
