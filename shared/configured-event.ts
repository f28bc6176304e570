/** A configured event (spec §2.2) as the API sends it and the stores keep it: its pattern, tool calls and policies. */

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
