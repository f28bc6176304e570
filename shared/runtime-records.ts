import type { EventRow, EventSource } from './event-row.js';

export { EVENT_SOURCES, type EventRow, type EventSource } from './event-row.js';

/**
 * The records of one Company's runtime as the API sends them and the stores keep them: agents,
 * sessions, quests, configured events, firings, trace. Wire shapes, so they live in shared/: the
 * CLI and the console read them, the stores persist them, and neither may import the daemon's
 * services (.dependency-cruiser.cjs). Fields may grow; names here are relied on.
 */
export interface Agent {
  id: string;
  name: string;
  role: string | null;
  created_at: string;
}

export interface TranscriptEntry {
  at: string;
  from: string;
  text: string;
}

export interface RuntimeSession {
  id: string;
  agent_id: string;
  /** `active` until stopped. */
  status: string;
  gateway_channel_id: string | null;
  /** The whole transcript on a read; the newest ANSWER_TAIL messages in the answer to a change. */
  transcript: TranscriptEntry[];
  /** How many messages the whole transcript holds. */
  transcript_total?: number;
  created_at: string;
  /** `running` between a turn's start and its completion. */
  turn_status?: 'idle' | 'running';
  turns_completed?: number;
  /** Characters of transcript the session may hold before `context:budget:exceeded`; null: no budget. */
  context_budget?: number | null;
  context_used?: number;
  stopped_at?: string | null;
  /** The latest compaction as delegation of this session, and the summary its context continues from. */
  compaction?: SessionCompaction | null;
  context_summary?: ContextSummary | null;
}

/**
 * Where a session's compaction as delegation stands (docs/events.md): its transcript handed off as
 * a quest to a role; `done` once the quest returned a summary, `failed` when it failed or returned
 * none. A `pending` one past `expires_at` no longer blocks a new one.
 */
export interface SessionCompaction {
  status: 'pending' | 'done' | 'failed';
  role: string;
  quest_id: string;
  /** The role's agent that got the quest, and the session it got it in (null until handed off). */
  agent_id: string | null;
  worker_session_id: string | null;
  /** The `context:budget:exceeded` event that started it (null when started by hand), and its `context:compaction:started`. */
  crossing_event_id: string | null;
  started_event_id: string | null;
  /** How many messages were handed off (the transcript's first `messages`), and `context_used` then. */
  messages: number;
  context_used: number;
  started_at: string;
  expires_at: string;
  finished_at: string | null;
  error: string | null;
}

/** The summary a session continues from: its context is `text`, then the transcript from message `covers` on. */
export interface ContextSummary {
  text: string;
  quest_id: string;
  /** The transcript's first `covers` messages are summarised by `text`. */
  covers: number;
  at: string;
}

export type QuestStatus = 'open' | 'in_progress' | 'done' | 'failed';

export interface Quest {
  id: string;
  title: string;
  status: QuestStatus;
  agent_id: string | null;
  session_id: string | null;
  result: unknown;
  created_at: string;
  updated_at: string;
  /** Set on a compaction quest: the session whose transcript it summarises. */
  compaction_of?: string | null;
}

export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
}

/** A detector's matcher; absent means: the pattern (and scope) alone decides. */
export type Matcher =
  | { kind: 'exact'; agent_id: string }
  | { kind: 'predicated'; field: string; regex: string; flags?: string }
  | { kind: 'window'; count: number; within_ms: number; group_by?: 'agent' | 'session' | null; cooldown_ms?: number };

/**
 * How a failed tool call is tried again. `max_attempts` counts every run, the first
 * included (1: never retried). The delay before attempt n+1 is drawn with jitter under
 * `min(max_ms, initial_ms * 2^(n-1))` ("full"), or between `initial_ms` and three times the last
 * delay, capped at `max_ms` ("decorrelated").
 */
export interface RetryPolicy {
  max_attempts: number;
  backoff: { initial_ms: number; max_ms: number; jitter: 'full' | 'decorrelated' };
}

/** How a retried call ended: it worked; it failed every attempt; a restart cut an attempt short; its rule went away. */
export type RetryOutcome = 'succeeded' | 'failed' | 'interrupted' | 'cancelled';

/**
 * One schedule's own policy. `catch_up`: what to do with ticks missed while the daemon
 * was down (`skip`, `latest`, `all` up to `max_catch_up`). `overlap`: `skip` a tick while the
 * previous firing of this schedule is still running (a call waiting for a retry), or `allow` it.
 * `start_at` / `end_at`: no tick before / after these times fires.
 */
export interface SchedulePolicy {
  catch_up?: 'skip' | 'latest' | 'all';
  max_catch_up?: number;
  overlap?: 'skip' | 'allow';
  start_at?: string | null;
  end_at?: string | null;
}

/** A pattern plus the tool calls to run when it matches (spec §2.2). */
export interface ConfiguredEvent {
  id: string;
  type: string;
  tool_calls: ToolCall[];
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  enabled: boolean;
  /** `armed`: no emitter produces the pattern, so it never fires (spec §3.5). */
  status: 'active' | 'paused' | 'armed';
  /** Shown (never stored) when armed: why, and the names its prefix's emitter does produce. */
  armed_reason?: string;
  names_that_fire?: string[];
  matcher?: Matcher | null;
  /** IANA zone of a `schedule:` pattern (UTC when absent). */
  timezone?: string | null;
  created_at: string;
  /** When it was last enabled (null while created paused); the scheduler's baseline. */
  enabled_at?: string | null;
  /** Retries of a failed tool call (null/absent: none, each call runs once). */
  retry?: RetryPolicy | null;
  /** `schedule:` patterns only: stored as set; shown with the daemon's defaults filled in. */
  schedule_policy?: SchedulePolicy | null;
  /** Flow control (absent on rules saved before it existed: none). */
  debounce?: DebouncePolicy | null;
  throttle?: ThrottlePolicy | null;
  concurrency?: ConcurrencyPolicy | null;
}

/**
 * Flow control of a configured event. `key` is a template over the event (`{{event.agent_id}}`):
 * each distinct value is a bucket of its own; no key, one bucket for the rule. Durations in ms.
 */
export interface DebouncePolicy {
  key?: string | null;
  /** Fire once, with the last event, after this long without another. */
  period_ms: number;
  /** At the latest this long after the first event of a burst. */
  max_wait_ms?: number | null;
}
export interface ThrottlePolicy {
  key?: string | null;
  /** At most `limit` firings per `period_ms`. */
  limit: number;
  period_ms: number;
}
export interface ConcurrencyPolicy {
  key?: string | null;
  /** At most this many firings whose work (a quest they created, a retry) is still open. */
  limit: number;
}

export interface NewConfiguredEvent {
  type: string;
  tool_calls: ToolCall[];
  agent_id?: string | null;
  session_id?: string | null;
  quest_id?: string | null;
  enabled?: boolean;
  matcher?: Matcher | null;
  timezone?: string | null;
  retry?: RetryPolicy | null;
  schedule_policy?: SchedulePolicy | null;
  debounce?: DebouncePolicy | null;
  throttle?: ThrottlePolicy | null;
  concurrency?: ConcurrencyPolicy | null;
}

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
