import { reportCause, type RuntimeCore } from '../runtime/core.js';
import type { CompanyServices, ConfiguredEvent, EventRow, Firing } from '../runtime/services.js';
import type { EventLog } from './log/types.js';
import type { MatcherHook } from './matchers.js';
import type { ToolRegistry } from './tools.js';

/** How many causation links deep an event may be and still fire: deeper is treated as a loop. */
export const DEFAULT_MAX_DEPTH = 8;

export interface DispatchDeps {
  core: RuntimeCore;
  log: EventLog;
  tools: ToolRegistry;
  matcher: MatcherHook;
  services: () => CompanyServices;
  maxDepth: number;
}

/** Whether a configured event's scope (agent, session, quest) covers the event: an unset scope field matches anything. */
export const scopeCovers = (cfg: ConfiguredEvent, event: EventRow): boolean =>
  (cfg.agent_id === null || cfg.agent_id === event.agent_id) &&
  (cfg.session_id === null || cfg.session_id === event.session_id) &&
  (cfg.quest_id === null || cfg.quest_id === event.quest_id);

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

  const runCall = async (cfg: ConfiguredEvent, call: ConfiguredEvent['tool_calls'][number], event: EventRow): Promise<Firing> => {
    const base = { configured_event_id: cfg.id, tool: call.tool };
    const tool = deps.tools.get(call.tool);
    if (!tool) return { ...base, ok: false, error: `unknown tool '${call.tool}'` };
    try {
      const args = tool.args.parse(call.args ?? {});
      const result = await tool.run(args, { services: deps.services(), event });
      // Tool calls made for an agent or a session feed loop detection (the same call again and again).
      if (event.agent_id || event.session_id) {
        const scope = { agent_id: event.agent_id, session_id: event.session_id, caused_by: event.id };
        await reportCause(deps.core, (c) => c.reportToolCall(scope, { tool: call.tool, args }));
      }
      return { ...base, ok: true, result: result ?? null };
    } catch (err) {
      return { ...base, ok: false, error: (err as Error).message || String(err) };
    }
  };

  return {
    depthOf,
    async dispatch(event: EventRow, fire: ConfiguredEvent[]): Promise<Firing[]> {
      const calls = fire.flatMap((cfg) => cfg.tool_calls.map((call) => ({ cfg, call })));
      if (calls.length === 0) return [];
      let fired: Firing[];
      const depth = await depthOf(event);
      if (depth >= deps.maxDepth) {
        const error = `not run: this event is ${depth} causation links deep, the limit is ${deps.maxDepth} (a loop of configured events?)`;
        fired = calls.map(({ cfg, call }) => ({ configured_event_id: cfg.id, tool: call.tool, ok: false, error, skipped: 'depth_limit' as const }));
      } else {
        fired = await Promise.all(calls.map(({ cfg, call }) => runCall(cfg, call, event)));
      }
      await deps.core.stores.firings.add(event.id, fired);
      return fired;
    },
    /** The configured events that fire for this event: pattern, enabled, emitter present, scope, matcher. */
    select(event: EventRow, candidates: ConfiguredEvent[]): ConfiguredEvent[] {
      return candidates.filter((cfg) => scopeCovers(cfg, event) && deps.matcher.allows(cfg, event));
    },
  };
}
