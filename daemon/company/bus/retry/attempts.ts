import { isoAt } from '../../../clock.js';
import type { Random } from '../../../random.js';
import type { ConfiguredEvent, Firing, RetryPolicy, ToolCall } from '../../../../shared/runtime-records.js';
import type { PendingRetry, RetryChange } from '../../../store/runtime-types.js';
import { nextDelayMs } from './backoff.js';

/** One run of a tool call as the dispatcher made it: `retryable` when the tool itself failed (not its arguments). */
export interface CallOutcome {
  firing: Firing;
  retryable: boolean;
}

const retryIdOf = (eventId: string, cfgId: string, callIndex: number) => `${eventId}|${cfgId}|${callIndex}`;

/**
 * Attempt `attempt` of a call of a configured event with a retry policy has run: annotates its
 * firing (attempt, call index, and either the next attempt's time or the final outcome) and says
 * what to write with it — the next attempt scheduled, and/or the record of this one dropped.
 * Arguments that do not fit are never retried: the same event gives the same arguments.
 */
export function settleAttempt(input: {
  policy: RetryPolicy;
  eventId: string;
  cfgId: string;
  callIndex: number;
  call: ToolCall;
  attempt: number;
  lastDelayMs: number;
  ran: CallOutcome;
  nowMs: number;
  random: Random;
}): { firing: Firing; change: RetryChange; dueMs?: number } {
  const { policy, attempt, ran } = input;
  const id = retryIdOf(input.eventId, input.cfgId, input.callIndex);
  const firing: Firing = { ...ran.firing, attempt, call_index: input.callIndex };
  const drop = attempt > 1 ? { remove: [id] } : {};
  if (ran.firing.ok) return { firing: { ...firing, outcome: 'succeeded' }, change: drop };
  if (!ran.retryable || attempt >= policy.max_attempts)
    return { firing: { ...firing, outcome: 'failed' }, change: drop };
  const delay = nextDelayMs(policy, attempt, input.lastDelayMs, input.random);
  const dueMs = input.nowMs + delay;
  const next: PendingRetry = {
    id,
    event_id: input.eventId,
    configured_event_id: input.cfgId,
    call_index: input.callIndex,
    call: input.call,
    policy,
    attempt: attempt + 1,
    due_ms: dueMs,
    last_delay_ms: delay,
    state: 'pending',
    lease_until_ms: null,
  };
  return { firing: { ...firing, next_attempt_at: isoAt(dueMs) }, change: { put: [next] }, dueMs };
}

/** The firing that ends a retry without running it: its rule is gone or paused, or its event is. */
export function cancelledFiring(r: PendingRetry, why: string): Firing {
  return {
    configured_event_id: r.configured_event_id,
    tool: r.call.tool,
    ok: false,
    error: `not retried: ${why}`,
    attempt: r.attempt,
    call_index: r.call_index,
    outcome: 'cancelled',
  };
}

/** Why a stored retry may no longer run, or null when it may. */
export function whyCancelled(cfg: ConfiguredEvent | undefined): string | null {
  if (!cfg) return 'the configured event was deleted';
  if (!cfg.enabled) return 'the configured event is paused';
  return null;
}
