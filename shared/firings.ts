import type { RetryOutcome } from './configured-event.js';
import type { EventRow, EventSource } from './event-row.js';

/** What an event set off, as the API sends it: the tool calls fired, those held back and why, and the trace tree. */

/** One tool call a configured event made, and how it went. */
export interface Firing {
  configured_event_id: string;
  tool: string;
  ok: boolean;
  result?: unknown;
  error?: string;
  /** Set when the call was not run at all: the causation depth guard stopped a likely loop. */
  skipped?: 'depth_limit';
  /** On firings of a configured event with `retry`: which attempt this was (1 = the first run). */
  attempt?: number;
  /** Which of the configured event's tool calls this was (its index): tells two calls of one tool apart. */
  call_index?: number;
  /** Set when this attempt failed and another is scheduled: when it is due (ISO). */
  next_attempt_at?: string;
  /** Set on the last attempt: how the call ended once no more attempts follow. */
  outcome?: RetryOutcome;
}

/** A configured event that was considered for an event and did not fire, and why (CONTRACT §8). */
export interface NotFired {
  configured_event_id: string;
  /**
   * `overlap`: a schedule tick skipped by its policy while the last firing still waited for a retry.
   * `debounced`: a later event of the burst fired instead; `throttled`, `concurrency`: flow control.
   */
  reason:
    | 'paused'
    | 'armed'
    | 'scope'
    | 'matcher'
    | 'cooldown'
    | 'depth'
    | 'overlap'
    | 'debounced'
    | 'throttled'
    | 'concurrency'
    | 'budget';
}

export interface EventFilter {
  event_type?: string;
  agent_id?: string;
  session_id?: string;
  quest_id?: string;
  /** ISO timestamp: events created at or after it. */
  since?: string;
  /** Events strictly after this id. */
  since_id?: string;
  limit?: number;
}

export interface EmitInput {
  type: string;
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  content?: unknown;
  /** The event that caused this one (trace links); null/absent for a root cause. */
  caused_by?: string | null;
  /** Default: `tool_call` when caused by another event, else `emitter`. Routes set `manual` and `webhook`. */
  source?: EventSource;
  /** A repeat with this key within 24 h answers the first answer (`replayed`) and appends nothing. */
  idempotency_key?: string | null;
}

export interface Emitted {
  event: EventRow;
  fired: Firing[];
  /** The configured events of its pattern that did not fire, with why. */
  not_fired?: NotFired[];
  /** Set on the answer to a repeat of an `idempotency_key`: this is the first answer, nothing ran again. */
  replayed?: boolean;
}

export interface TraceNode {
  event: EventRow;
  fired: Firing[];
  not_fired: NotFired[];
  children: TraceNode[];
}

/** A firing whose tool call failed after its retries, as `GET /api/events/failures` lists it. */
export interface Failure {
  id: string;
  event_id: string;
  configured_event_id: string;
  tool: string;
  error: string;
  attempts: number;
  failed_at: string;
  replayed_at: string | null;
  replay_event_id: string | null;
}
