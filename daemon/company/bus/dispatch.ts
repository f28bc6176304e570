import { reportCause, type RuntimeCore } from '../core.js';
import type { ConfiguredEvent, EventRow, Firing, NotFired } from '../company-services.js';
import type { EventLog } from '../../store/event-log/types.js';
import type { MatcherHook } from './matchers.js';
import { hasReferences, resolveReferences } from './references.js';
import type { ToolRegistry, ToolServices } from './tools.js';
import type { Random } from '../../random.js';
import type { PendingRetry } from '../../store/runtime-types.js';
import { settleAttempt, type CallOutcome } from './retry/attempts.js';
import { failedForGood, failureOf } from './failures.js';

/** How many causation links deep an event may be and still fire: deeper is treated as a loop. */
export const DEFAULT_MAX_DEPTH = 8;

export interface DispatchDeps {
  core: RuntimeCore;
  log: EventLog;
  tools: ToolRegistry;
  matcher: MatcherHook;
  /** What tool calls act on (built before the events service: open-company.ts). */
  services: ToolServices;
  maxDepth: number;
  /** Draws the jitter of retry delays. */
  random: Random;
  /** Told when a dispatch scheduled a retry, so the retry walker can wake up in time. */
  onRetryScheduled?(dueMs: number): void;
}

/**
 * Runs the tool calls of every configured event that fires for `event` (spec §6.5): all of them
 * at once, each isolated, so one failing call is recorded as such and the others still run.
 * The firings are stored for trace. Past the depth guard nothing runs: each call that would have
 * is recorded as skipped, so a loop is visible in trace instead of silently cut.
 */
export function createDispatcher(deps: DispatchDeps) {
  const depthOf = async (event: EventRow): Promise<number> => {
    let depth = 0;
    let parent = event.causation_id;
    while (parent && depth <= deps.maxDepth) {
      depth++;
      parent = (await deps.log.get(parent))?.causation_id ?? null;
    }
    return depth;
  };

  /** Runs one call. A failure of the tool itself is `retryable`; an unknown tool or arguments that do not fit are not. */
  const runCall = async (
    cfg: Pick<ConfiguredEvent, 'id'>,
    call: ConfiguredEvent['tool_calls'][number],
    event: EventRow,
    /** Whose `{{event.…}}` values the args take: a replay runs under its own event with the original's. */
    argsFrom: EventRow = event,
  ): Promise<CallOutcome> => {
    const base = { configured_event_id: cfg.id, tool: call.tool };
    const tool = deps.tools.get(call.tool);
    if (!tool) return { firing: { ...base, ok: false, error: `unknown tool '${call.tool}'` }, retryable: false };
    let args: unknown;
    try {
      const given = call.args ?? {};
      args = tool.args.parse(hasReferences(given) ? resolveReferences(given, argsFrom) : given);
    } catch (err) {
      return { firing: { ...base, ok: false, error: (err as Error).message || String(err) }, retryable: false };
    }
    try {
      const result = await tool.run(args, { services: deps.services, emit: deps.core.emit, event });
      // Tool calls made for an agent or a session feed loop detection (the same call again and again).
      if (event.agent_id || event.session_id) {
        const scope = { agent_id: event.agent_id, session_id: event.session_id, caused_by: event.id };
        await reportCause(deps.core, (c) => c.reportToolCall(scope, { tool: call.tool, args }));
      }
      return { firing: { ...base, ok: true, result: result ?? null }, retryable: false };
    } catch (err) {
      return { firing: { ...base, ok: false, error: (err as Error).message || String(err) }, retryable: true };
    }
  };

  /** The first run of a call; with a retry policy, annotated and maybe followed by a scheduled retry. */
  const firstRun = async (
    cfg: ConfiguredEvent,
    call: ConfiguredEvent['tool_calls'][number],
    callIndex: number,
    event: EventRow,
    retries: PendingRetry[],
  ): Promise<Firing> => {
    const ran = await runCall(cfg, call, event);
    if (!cfg.retry) return ran.firing;
    const settled = settleAttempt({
      policy: cfg.retry,
      eventId: event.id,
      cfgId: cfg.id,
      callIndex,
      call,
      attempt: 1,
      lastDelayMs: 0,
      ran,
      nowMs: deps.core.clock.now(),
      random: deps.random,
    });
    retries.push(...(settled.change.put ?? []));
    return settled.firing;
  };

  return {
    depthOf,
    runCall,
    /**
     * Runs what fires and records it with what did not (for trace). Past the depth guard the
     * configured events that would have fired are `not_fired` with reason `depth` too.
     */
    async dispatch(
      event: EventRow,
      fire: ConfiguredEvent[],
      notFired: NotFired[] = [],
    ): Promise<{ fired: Firing[]; not_fired: NotFired[] }> {
      const calls = fire.flatMap((cfg) => cfg.tool_calls.map((call, index) => ({ cfg, call, index })));
      if (calls.length === 0 && notFired.length === 0) return { fired: [], not_fired: [] };
      let fired: Firing[] = [];
      const not_fired = [...notFired];
      const retries: PendingRetry[] = [];
      const depth = calls.length > 0 ? await depthOf(event) : 0;
      if (depth >= deps.maxDepth) {
        const error = `not run: this event is ${depth} causation links deep, the limit is ${deps.maxDepth} (a loop of configured events?)`;
        fired = calls.map(({ cfg, call }) => ({
          configured_event_id: cfg.id,
          tool: call.tool,
          ok: false,
          error,
          skipped: 'depth_limit' as const,
        }));
        for (const cfg of fire)
          if (cfg.tool_calls.length > 0) not_fired.push({ configured_event_id: cfg.id, reason: 'depth' });
      } else {
        fired = await Promise.all(calls.map(({ cfg, call, index }) => firstRun(cfg, call, index, event, retries)));
      }
      // The retries are scheduled in the write that records the failure: both are on disk, or neither.
      await deps.core.stores.firings.add(event.id, fired, not_fired, retries.length > 0 ? { put: retries } : undefined);
      // Calls that failed for good are kept for the failures list and replay.
      const failed = fired.flatMap((f, i) =>
        failedForGood(f) ? [failureOf(event.id, calls[i]!.index, calls[i]!.call, f, deps.core.clock.now())] : [],
      );
      if (failed.length > 0) await Promise.all(failed.map((r) => deps.core.stores.failures.add(r)));
      if (retries.length > 0) deps.onRetryScheduled?.(Math.min(...retries.map((r) => r.due_ms)));
      return { fired, not_fired };
    },
  };
}
