/**
 * Pending retries of failed tool calls, kept with a Company's runtime records so they
 * survive a restart and, on PostgreSQL, are shared by every daemon of a team. A record lives from
 * the failed attempt that scheduled it until its call settles; settled retries are in the firings.
 */
import type { RetryPolicy, ToolCall } from '../../shared/runtime-records.js';

export interface PendingRetry {
  /** `<event id>|<configured event id>|<call index>`: one record per call, whatever its attempt. */
  id: string;
  event_id: string;
  configured_event_id: string;
  call_index: number;
  /** The call as it was when it first failed: a later edit of the rule does not change a retry under way. */
  call: ToolCall;
  policy: RetryPolicy;
  /** The attempt to run next (2: the first retry). */
  attempt: number;
  due_ms: number;
  /** The wait drawn before this attempt (decorrelated jitter grows from it). */
  last_delay_ms: number;
  /**
   * `running` once a walker claimed the attempt: it has started, and is never started again (at
   * most once). One still `running` past `lease_until_ms` was cut short by a stop: `interrupted`.
   */
  state: 'pending' | 'running';
  lease_until_ms: number | null;
}

/** Written with a dispatch's firings, in the same atomic write: schedule (or replace) these, drop those. */
export interface RetryChange {
  put?: PendingRetry[];
  remove?: string[];
}

export interface RetryStore {
  /** Pending records due at `nowMs` and running ones whose lease ran out, soonest due first, at most `limit`. */
  due(nowMs: number, limit: number): Promise<PendingRetry[]>;
  /** When the soonest pending record is due (ms), or null when none is pending. */
  nextDueMs(): Promise<number | null>;
  /**
   * Takes attempt `attempt` of record `id` to run it: one atomic check-and-set (pending, that
   * attempt, due) → running with a lease. Of several walkers (daemons) exactly one gets it.
   */
  claim(id: string, attempt: number, nowMs: number, leaseMs: number): Promise<PendingRetry | undefined>;
  /** Drops a record still `running` at `attempt` past its lease (atomically: one walker gets it). */
  takeInterrupted(id: string, attempt: number, nowMs: number): Promise<PendingRetry | undefined>;
  /** How many records a configured event has (pending or running): its firings are not all settled. */
  countFor(configuredEventId: string): Promise<number>;
  /** The records of an event (trace shows what is still to come). */
  of(eventId: string): Promise<PendingRetry[]>;
}
