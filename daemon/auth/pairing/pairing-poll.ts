import type { Context } from 'koa';
import { isoAt } from '../../clock.js';
import { issueSession, type AuthMethod } from '../session-issuer.js';
import { approvalStanding } from './approval-standing.js';
import { hashDeviceCode, type PairingDeps } from './pairing.js';
import type { PairingStore } from '../../store/pairing-store.js';

export type PollResult =
  | { state: 'pending'; expires_at: string }
  | { state: 'approved'; token: string; session_id: string }
  | { state: 'denied' }
  | { state: 'gone' }
  /** Approved, but the approving session ended (or the password changed) before collection. */
  | { state: 'approval_ended' };

/**
 * The CLI's poll. An approved pairing is collected in one check-and-set, so two racing polls get
 * one session between them; the session is the CLI's own (its user agent and address), and its
 * `method` says it came from a pairing followed by the approving session's factors. It stands on
 * the approving session (approval-standing.ts): it inherits that login's time and ends no later.
 */
export async function pollPairing(
  deps: PairingDeps,
  store: PairingStore,
  ctx: Pick<Context, 'get' | 'ip'>,
  deviceCode: string,
): Promise<PollResult> {
  const record = await store.findByDevice(hashDeviceCode(deviceCode));
  const nowIso = isoAt(deps.clock.now());
  if (!record || record.expires_at <= nowIso) return { state: 'gone' };
  if (record.status === 'pending') return { state: 'pending', expires_at: record.expires_at };
  if (record.status === 'denied') {
    await store.transition(record.id, 'denied', { status: 'collected' }, nowIso);
    return { state: 'denied' };
  }
  const collected =
    record.status === 'approved'
      ? await store.transition(record.id, 'approved', { status: 'collected' }, nowIso)
      : null;
  if (!collected) return { state: 'gone' };
  const standing = await approvalStanding(deps, collected, deps.clock.now());
  if (!standing) return { state: 'approval_ended' };
  const method = ['pairing', ...(collected.approved_method ?? [])] as AuthMethod[];
  const { token, session } = await issueSession(deps, {
    user: standing.user,
    kind: 'full',
    method,
    ctx,
    from: { authAt: standing.authAt, expiresAt: Date.parse(standing.approver.expires_at) },
  });
  // A reset or revocation racing this poll may have ended the approver after the check above but
  // before the new session existed, so it did not end that one too: look again now that it
  // exists, and end it if the approval no longer stands.
  if (!(await approvalStanding(deps, collected, deps.clock.now()))) {
    await deps.stores.sessions.revoke(session.id, standing.user.id, isoAt(deps.clock.now()));
    return { state: 'approval_ended' };
  }
  return { state: 'approved', token, session_id: session.id };
}
