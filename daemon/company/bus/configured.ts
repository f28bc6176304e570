import { ErrorCode } from '../../../shared/errors.js';
import { parsePattern } from '../../../shared/patterns.js';
import { invalid, missing, parseInput } from '../../domain-error.js';
import { copy, nowIso, requireAgent, requireQuest, requireSession, type RuntimeCore } from '../core.js';
import type { ConfiguredEvent, EventFilter, NewConfiguredEvent, ToolCall } from '../company-services.js';
import { checkEmitterInput } from './emitter-input.js';
import { whyArmed, type EmitterRegistry } from './emitters.js';
import { parseMatcher, type MatcherHook } from './matchers.js';
import type { ToolRegistry } from './tools.js';
import { configuredChangeSchema, newConfiguredSchema } from './configured-schema.js';
import { checkRetry, checkSchedulePolicy, effectiveSchedulePolicy } from './policies.js';
import { checkFlow } from './flow/flow-schema.js';
import type { DuePolicy } from '../schedules/due-ticks.js';
import { isSchedulePattern } from '../../../shared/cron.js';

/** The emitter checks (cron, timezone, regex safety) as a 400 that carries the reason; the matcher as stored. */
function checkEmitter(input: { type: string; timezone?: string | null; matcher?: unknown }) {
  const check = checkEmitterInput(input as Parameters<typeof checkEmitterInput>[0]);
  if (!check.ok) throw invalid(check.message, check.code);
  return check;
}

/** A pattern as the bus accepts it, or a 400 that explains why not (dotted names get their own code). */
export function checkPattern(type: string): string {
  const parsed = parsePattern(type);
  if (parsed.ok) return type.trim();
  const code = parsed.problem === 'dotted' ? ErrorCode.dottedEventName : ErrorCode.invalidEventPattern;
  throw invalid(parsed.message, code);
}

export interface ConfiguredDeps {
  core: RuntimeCore;
  emitters: EmitterRegistry;
  matcher: MatcherHook;
  tools: ToolRegistry;
  /** The daemon's missed-tick policy: what a schedule without its own `catch_up` runs under. */
  schedulePolicy: Pick<DuePolicy, 'missed' | 'maxCatchUp'>;
  /** Flow-control state of a rule, dropped when the rule is deleted. */
  flow?: { forget(cfgId: string): Promise<void> };
}

/** Configured events: a pattern, tool calls, an optional scope; `status` is computed on every read. */
export function createConfiguredEvents({ core, emitters, matcher, tools, schedulePolicy, flow }: ConfiguredDeps) {
  const stored = core.stores.configured;
  /**
   * Armed beats paused: an event whose pattern nothing emits cannot fire either way (spec §3.5).
   * An armed one says why, and under a known prefix which names do fire (a typo is one read away).
   */
  const present = (stored: ConfiguredEvent): ConfiguredEvent => {
    const armed = whyArmed(emitters, stored.type);
    // A schedule shows (and the scheduler reads) its policy whole: its own settings, else the daemon's.
    const cfg = isSchedulePattern(stored.type)
      ? { ...stored, schedule_policy: effectiveSchedulePolicy(stored.schedule_policy, schedulePolicy) }
      : stored;
    if (!armed) return { ...copy(cfg), status: cfg.enabled ? 'active' : 'paused' };
    return {
      ...copy(cfg),
      status: 'armed',
      armed_reason: armed.reason,
      ...(armed.names_that_fire.length > 0 && { names_that_fire: armed.names_that_fire }),
    };
  };
  const noSuch = (id: string) => missing(`No configured event ${id} in this Company.`, ErrorCode.eventNotFound);
  const find = async (id: string) => {
    const cfg = await stored.get(id);
    if (!cfg) throw noSuch(id);
    return cfg;
  };

  return {
    present,
    async create(input: NewConfiguredEvent): Promise<ConfiguredEvent> {
      const cfg = await this.build(input);
      await stored.create(cfg);
      return present(cfg);
    },
    /** A configured event as create would store it, every check made, nothing stored (preview uses it too). */
    async build(input: unknown): Promise<ConfiguredEvent> {
      const body = parseInput(newConfiguredSchema, input);
      const type = checkPattern(body.type);
      const tool_calls = tools.check(body.tool_calls as ToolCall[]);
      // Structure and the hook's kinds first (a clear field error), then the emitter's own checks.
      parseMatcher(body.matcher, matcher);
      const checked = checkEmitter({ type, timezone: body.timezone ?? null, matcher: body.matcher ?? null });
      const m = checked.matcher;
      const retry = checkRetry(body.retry);
      const schedule_policy = checkSchedulePolicy(type, body.schedule_policy);
      const flowPolicies = checkFlow(body);
      if (body.agent_id) await requireAgent(core, body.agent_id);
      if (body.session_id) await requireSession(core, body.session_id);
      if (body.quest_id) await requireQuest(core, body.quest_id);
      const cfg: ConfiguredEvent = {
        id: core.ids('cev'),
        type,
        tool_calls,
        agent_id: body.agent_id ?? null,
        session_id: body.session_id ?? null,
        quest_id: body.quest_id ?? null,
        enabled: body.enabled ?? true,
        status: 'active',
        matcher: m,
        timezone: checked.timezone,
        created_at: nowIso(core),
        // The scheduler never fires a tick from before this (spec §6.4: no catch-up for a paused time).
        enabled_at: (body.enabled ?? true) ? nowIso(core) : null,
        ...(retry && { retry }),
        ...(schedule_policy && { schedule_policy }),
        ...(flowPolicies.debounce && { debounce: flowPolicies.debounce }),
        ...(flowPolicies.throttle && { throttle: flowPolicies.throttle }),
        ...(flowPolicies.concurrency && { concurrency: flowPolicies.concurrency }),
      };
      return cfg;
    },
    get: async (id: string) => {
      const cfg = await stored.get(id);
      return cfg ? present(cfg) : undefined;
    },
    async list(
      filter: Omit<EventFilter, 'since' | 'since_id' | 'limit'> & { prefix?: string } = {},
    ): Promise<ConfiguredEvent[]> {
      const { event_type, prefix, agent_id, session_id, quest_id } = filter;
      return (await stored.list({ type: event_type, prefix, agent_id, session_id, quest_id })).map(present);
    },
    async update(id: string, input: unknown): Promise<ConfiguredEvent> {
      const body = parseInput(configuredChangeSchema, input);
      const current = await find(id);
      const tool_calls = body.tool_calls ? tools.check(body.tool_calls as ToolCall[]) : undefined;
      let m: ConfiguredEvent['matcher'] | undefined;
      if (body.matcher !== undefined) {
        parseMatcher(body.matcher, matcher);
        m = checkEmitter({ type: current.type, timezone: current.timezone ?? null, matcher: body.matcher }).matcher;
      }
      // `null` clears a policy; absent leaves it as it is.
      const retry = body.retry === undefined ? undefined : checkRetry(body.retry);
      const policy =
        body.schedule_policy === undefined ? undefined : checkSchedulePolicy(current.type, body.schedule_policy);
      const flowPolicies = checkFlow(body);
      const updated = await stored.update(id, (c) => ({
        ...c,
        ...(retry !== undefined && { retry }),
        ...(policy !== undefined && { schedule_policy: policy }),
        ...flowPolicies,
        ...(tool_calls && { tool_calls }),
        ...(m !== undefined && { matcher: m }),
        ...(body.enabled === true && !c.enabled && { enabled_at: nowIso(core) }),
        ...(body.enabled !== undefined && { enabled: body.enabled }),
      }));
      if (!updated) throw noSuch(id); // deleted meanwhile
      // A new matcher starts counting afresh: old window hits were counted under other rules.
      if (m !== undefined) await matcher.forget?.(id);
      return present(updated);
    },
    setEnabled(id: string, enabled: boolean) {
      return this.update(id, { enabled });
    },
    async delete(id: string): Promise<void> {
      if (!(await stored.delete(id))) throw noSuch(id);
      await matcher.forget?.(id);
      await flow?.forget(id);
    },
    /** Every configured event of this exact pattern (enabled or not): dispatch decides, and says why not. */
    ofType(type: string): Promise<ConfiguredEvent[]> {
      // The store's index by pattern: dispatch looks only at configured events of the event's own pattern.
      return stored.list({ type });
    },
  };
}

export type ConfiguredEvents = ReturnType<typeof createConfiguredEvents>;
