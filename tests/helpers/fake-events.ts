import type { Clock } from '../../daemon/clock.js';
import type {
  ConfiguredEvent,
  EmitInput,
  Emitted,
  EventRow,
  EventsService,
  NewConfiguredEvent,
} from '../../daemon/company/company-services.js';

const KNOWN_PREFIXES = [
  'schedule',
  'session',
  'webhook',
  'loop',
  'guardrail',
  'graph_guardrail',
  'shell',
  'context',
  'ideas',
  'agent',
  'question',
];

export interface FakeEvents {
  service: Pick<
    EventsService,
    'create' | 'get' | 'listConfigured' | 'setEnabled' | 'delete' | 'fire' | 'emit' | 'subscribe'
  >;
  /** Every `fire` call, in order. */
  fires: Array<{ id: string; content: unknown }>;
  /** Every `emit` call, in order. */
  emits: EmitInput[];
  /** Makes `fire` of this configured event throw (a failing tool call path). */
  failFire(id: string): void;
}

/**
 * A stand-in for the events bus with the same contract for what the emitters use:
 * configured events with active/paused/armed status, `fire` and `emit` recorded, subscribers called.
 */
export function createFakeEvents(clock: Clock): FakeEvents {
  const configured = new Map<string, ConfiguredEvent>();
  const listeners = new Set<(e: EventRow) => void>();
  const fires: FakeEvents['fires'] = [];
  const emits: EmitInput[] = [];
  const failing = new Set<string>();
  let seq = 0;
  const nextId = (p: string) => `${p}_${String(++seq).padStart(6, '0')}`;
  const statusOf = (c: { type: string; enabled: boolean }) =>
    !KNOWN_PREFIXES.includes(c.type.split(':')[0]!) ? 'armed' : c.enabled ? 'active' : 'paused';
  const row = (input: EmitInput): EventRow => {
    const id = nextId('ev');
    return {
      id,
      type: input.type,
      agent_id: input.agent_id ?? null,
      session_id: input.session_id ?? null,
      quest_id: input.quest_id ?? null,
      content: input.content ?? {},
      created_at: new Date(clock.now()).toISOString(),
      causation_id: input.caused_by ?? null,
      correlation_id: id,
      source: input.source ?? (input.caused_by ? 'tool_call' : 'emitter'),
    };
  };
  const service: FakeEvents['service'] = {
    async create(input: NewConfiguredEvent) {
      const enabled = input.enabled ?? true;
      const cfg: ConfiguredEvent = {
        id: nextId('cfg'),
        type: input.type,
        tool_calls: input.tool_calls,
        agent_id: input.agent_id ?? null,
        session_id: input.session_id ?? null,
        quest_id: input.quest_id ?? null,
        enabled,
        status: statusOf({ type: input.type, enabled }),
        matcher: input.matcher ?? null,
        timezone: input.timezone ?? null,
        created_at: new Date(clock.now()).toISOString(),
      };
      configured.set(cfg.id, cfg);
      return cfg;
    },
    get: async (id) => configured.get(id),
    listConfigured: async () => [...configured.values()],
    async setEnabled(id, enabled) {
      const cfg = configured.get(id);
      if (!cfg) throw new Error(`no configured event ${id}`);
      cfg.enabled = enabled;
      cfg.status = statusOf(cfg);
      return cfg;
    },
    async delete(id) {
      configured.delete(id);
    },
    async fire(id, options = {}) {
      const cfg = configured.get(id);
      if (!cfg) throw new Error(`no configured event ${id}`);
      if (failing.has(id)) throw new Error(`fire of ${id} failed`);
      fires.push({ id, content: options.content });
      const event = row({ type: cfg.type, content: options.content, caused_by: options.caused_by });
      return {
        event,
        fired: cfg.tool_calls.map((t) => ({ configured_event_id: id, tool: t.tool, ok: true })),
      } satisfies Emitted;
    },
    async emit(input) {
      emits.push(input);
      const event = row(input);
      for (const l of listeners) l(event);
      return { event, fired: [] };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { service, fires, emits, failFire: (id) => void failing.add(id) };
}
