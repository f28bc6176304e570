import * as z from 'zod';
import type { Clock } from '../../clock.js';
import { invalid, parseInput } from '../../domain-error.js';
import { ErrorCode } from '../../../shared/errors.js';
import type { ConfiguredEvent, EventRow, Firing, NotFired, ToolCall } from '../company-services.js';
import type { EventLog } from '../../store/event-log/types.js';
import type { QuestStore, RetryStore } from '../../store/runtime-types.js';
import { memoryFlow } from '../../store/runtime/flow-memory.js';
import { considerConfigured } from './considered.js';
import type { EmitterRegistry } from './emitters.js';
import { createFlowControl, type FlowTicket } from './flow/flow-control.js';
import { gateFlow } from './flow/flow-gate.js';
import type { MatcherHook } from './matchers.js';
import { hasReferences, resolveReferences } from './references.js';

const iso = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2026-01-15T12:00:00Z' });
const previewInput = z.object({ event: z.record(z.string(), z.unknown()), since: iso, until: iso.optional() }).strict();
/** The events a preview reads at most: a dry run answers in one request. */
const MAX_EVENTS = 10_000;

export interface PreviewDeps {
  log: EventLog;
  emitters: EmitterRegistry;
  quests: Pick<QuestStore, 'get'>;
  retries: Pick<RetryStore, 'of'>;
  /** A matcher with state of its own (fresh windows) reading `clock`: the live one is never touched. */
  freshMatcher(clock: Clock): MatcherHook;
  /** The rule as create would store it (every check, nothing stored). */
  build(input: unknown): Promise<ConfiguredEvent>;
}

export interface PreviewAnswer {
  would_fire: Array<{ event_id: string; tool_calls: ToolCall[] }>;
  not_fired: Array<{ event_id: string; reason: NotFired['reason'] }>;
  truncated?: true;
}

/**
 * A dry run of a rule, new or changed, over the stored log: each event of its pattern in the range,
 * oldest first, goes through the same code as live dispatch (consideration, matcher, flow control)
 * on a clock standing at the event's time, with state of its own — no window, slot or log entry of
 * the live bus is read or written, and no tool runs. A firing's work (a quest it would create) is
 * taken as still open, as nothing in the past can end it.
 */
export function createPreview(deps: PreviewDeps) {
  return async (input: unknown): Promise<PreviewAnswer> => {
    const body = parseInput(previewInput, input);
    if (body.until && Date.parse(body.until) < Date.parse(body.since))
      throw invalid(`until: ${body.until} is before since ${body.since}`, ErrorCode.validationFailed);
    const cfg = { ...(await deps.build(body.event)), id: 'cev_preview', enabled: true };
    let at = Date.parse(body.since);
    const clock: Clock = { now: () => at };
    const matcher = deps.freshMatcher(clock);
    const flow = createFlowControl({
      store: memoryFlow(),
      clock,
      // Quests a previewed firing "created" stay open; real ones are read as they are now.
      quests: {
        get: async (id) => (id.startsWith('qst_preview_') ? ({ status: 'open' } as never) : deps.quests.get(id)),
      },
      retries: deps.retries,
    });
    const answer: PreviewAnswer = { would_fire: [], not_fired: [] };
    const byId = new Map<string, EventRow>();
    let made = 0;
    const fire = async (event: EventRow, ticket: FlowTicket | undefined) => {
      const tool_calls = cfg.tool_calls.map((c) => ({
        tool: c.tool,
        args: hasReferences(c.args) ? resolveReferences(c.args ?? {}, event) : (c.args ?? {}),
      }));
      answer.would_fire.push({ event_id: event.id, tool_calls });
      const fired: Firing[] = cfg.tool_calls.map((c) => ({
        configured_event_id: cfg.id,
        tool: c.tool,
        ok: true,
        result: c.tool === 'quests.create' ? { id: `qst_preview_${++made}` } : null,
      }));
      if (ticket) await flow.settle(ticket, fired);
    };
    const fireDue = async () => {
      for (const d of await flow.takeDue(MAX_EVENTS)) {
        const event = byId.get(d.event_id);
        if (!event) continue;
        const ticket = flow.ticket(cfg, event);
        const why = await flow.admit(ticket);
        if (why) answer.not_fired.push({ event_id: event.id, reason: why });
        else await fire(event, ticket);
      }
    };
    const end = body.until ? Date.parse(body.until) : Number.POSITIVE_INFINITY;
    let since_id: string | undefined;
    let seen = 0;
    for (;;) {
      const page = await deps.log.query({ event_type: cfg.type, since: body.since, since_id, limit: 1000 });
      for (const event of page.events) {
        const t = Date.parse(event.created_at);
        if (t > end) break;
        if (++seen > MAX_EVENTS) {
          answer.truncated = true;
          break;
        }
        at = t;
        await fireDue(); // debounces whose quiet came before this event
        byId.set(event.id, event);
        const considered = await considerConfigured(event, [cfg], { emitters: deps.emitters, matcher });
        if (considered.notFired.length > 0) {
          answer.not_fired.push({ event_id: event.id, reason: considered.notFired[0]!.reason });
          continue;
        }
        if (considered.fire.length === 0) continue;
        const gated = await gateFlow(
          {
            flow,
            recordNotFired: async (id, nf) => void answer.not_fired.push({ event_id: id, reason: nf[0]!.reason }),
            onDeferred: () => {},
          },
          considered.fire,
          event,
        );
        if (gated.notFired.length > 0) answer.not_fired.push({ event_id: event.id, reason: gated.notFired[0]!.reason });
        else if (gated.now.length > 0) await fire(event, gated.admitted[0]);
      }
      const last = page.events.at(-1);
      if (!page.next_since_id || answer.truncated || !last || Date.parse(last.created_at) > end) break;
      since_id = page.next_since_id;
    }
    // A debounce still waiting at the end fires once its quiet comes.
    at = Number.MAX_SAFE_INTEGER;
    await fireDue();
    return answer;
  };
}
