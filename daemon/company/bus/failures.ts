import { isoAt } from '../../clock.js';
import type { Firing, ToolCall } from '../company-services.js';
import type { FailureRecord } from '../../store/failure-types.js';

/** A call that failed and will not run again by itself: no retry pending, not skipped, not cancelled. */
export const failedForGood = (f: Firing): boolean =>
  !f.ok && f.skipped === undefined && f.next_attempt_at === undefined && f.outcome !== 'cancelled';

export const failureId = (eventId: string, cfgId: string, callIndex: number) => `${eventId}|${cfgId}|${callIndex}`;

export function failureOf(eventId: string, callIndex: number, call: ToolCall, f: Firing, nowMs: number): FailureRecord {
  return {
    id: failureId(eventId, f.configured_event_id, callIndex),
    event_id: eventId,
    configured_event_id: f.configured_event_id,
    call_index: callIndex,
    call,
    tool: f.tool,
    error: f.error ?? 'failed',
    attempts: f.attempt ?? 1,
    failed_at: isoAt(nowMs),
    replayed_at: null,
    replay_event_id: null,
  };
}

/** What the failures list shows of a record. */
export const presentFailure = (r: FailureRecord) => ({
  id: r.id,
  event_id: r.event_id,
  configured_event_id: r.configured_event_id,
  tool: r.tool,
  error: r.error,
  attempts: r.attempts,
  failed_at: r.failed_at,
  replayed_at: r.replayed_at,
  replay_event_id: r.replay_event_id,
});
