import type { CompanyRef, RuntimeHost } from '../../daemon/gateway/seam.js';
import { notFound, badRequest } from '../../daemon/http/api-error.js';
import type { Agent, CompanyServices, EmitInput, ConfiguredEvent, EventRow, Firing, Quest, RuntimeSession, TraceNode } from '../../daemon/runtime/services.js';

/**
 * A small in-memory CompanyServices for tests of callers of the runtime (MCP tools) until the real
 * runtime (issue 6) is merged. Honest but minimal: exact-type patterns only, tool calls
 * `quests.create` and `message_to`, causation links for trace; no persistence, schedules or detectors.
 */
export function createFakeServices(company: CompanyRef): CompanyServices {
  let seq = 0;
  const id = (prefix: string) => `${prefix}_${String(++seq).padStart(6, '0')}`;
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
  const agents = new Map<string, Agent>();
  const sessions = new Map<string, RuntimeSession>();
  const quests = new Map<string, Quest>();
  const configured = new Map<string, ConfiguredEvent>();
  const log: EventRow[] = [];
  const firings = new Map<string, Firing[]>();
  const must = <T>(v: T | undefined, what: string, key: string): T => v ?? (() => { throw notFound(`No ${what} with id '${key}' in this Company.`); })();

  const services: CompanyServices = {
    company,
    agents: {
      create: async ({ name, role }) => {
        const agent = { id: id('agt'), name, role: role ?? null, created_at: now() };
        agents.set(agent.id, agent);
        return agent;
      },
      get: (k) => agents.get(k),
      list: () => [...agents.values()],
    },
    sessions: {
      create: async ({ agent_id, gateway_channel_id }) => {
        must(agents.get(agent_id), 'agent', agent_id);
        const s = { id: id('ses'), agent_id, status: 'active', gateway_channel_id: gateway_channel_id ?? null, transcript: [], created_at: now() };
        sessions.set(s.id, s);
        return s;
      },
      get: (k) => sessions.get(k),
      list: (f = {}) => [...sessions.values()].filter((s) => (!f.agent_id || s.agent_id === f.agent_id) && (!f.status || s.status === f.status)),
      stop: async (k) => Object.assign(must(sessions.get(k), 'session', k), { status: 'stopped' }),
      append: async (k, entry) => {
        const s = must(sessions.get(k), 'session', k);
        s.transcript.push({ at: now(), ...entry });
        return s;
      },
    },
    quests: {
      create: async ({ title, agent_id, session_id }) => {
        const q: Quest = { id: id('qst'), title, status: 'open', agent_id: agent_id ?? null, session_id: session_id ?? null, result: null, created_at: now(), updated_at: now() };
        quests.set(q.id, q);
        return q;
      },
      get: (k) => quests.get(k),
      list: (f = {}) => [...quests.values()].filter((q) => (!f.status || q.status === f.status) && (!f.agent_id || q.agent_id === f.agent_id)),
      update: async (k, change) => Object.assign(must(quests.get(k), 'quest', k), change, { updated_at: now() }),
    },
    messageTo: async ({ to }) => {
      // Delivery is the real runtime's business; the fake only resolves the addressee.
      const agent = agents.get(to) ?? [...agents.values()].find((a) => a.role === to);
      if (!agent) throw notFound(`No agent with id or role '${to}' in this Company.`);
      return { agent_id: agent.id, session_id: null };
    },
    events: {
      create: async (input) => {
        if (!input.type.includes(':')) throw badRequest(`The event type '${input.type}' needs a prefix, e.g. quest:completed.`);
        const enabled = input.enabled ?? true;
        const e: ConfiguredEvent = { id: id('cev'), type: input.type, tool_calls: input.tool_calls, agent_id: input.agent_id ?? null, session_id: input.session_id ?? null, quest_id: input.quest_id ?? null, enabled, status: enabled ? 'active' : 'paused', created_at: now() };
        configured.set(e.id, e);
        return e;
      },
      get: (k) => configured.get(k),
      listConfigured: (f = {}) => [...configured.values()].filter((e) => !f.event_type || e.type === f.event_type),
      setEnabled: async (k, enabled) => Object.assign(must(configured.get(k), 'configured event', k), { enabled, status: enabled ? 'active' : 'paused' }),
      delete: async (k) => void (must(configured.get(k), 'configured event', k), configured.delete(k)),
      list: (f = {}) => {
        const after = f.since_id ? log.findIndex((e) => e.id === f.since_id) + 1 : 0;
        const rows = log.slice(after).filter((e) => !f.event_type || e.type === f.event_type);
        const page = rows.slice(0, f.limit ?? 100);
        return { events: page, next_since_id: page.length < rows.length ? page[page.length - 1]!.id : null };
      },
      emit: async (input) => {
        const event = append(input);
        const fired: Firing[] = [];
        for (const c of [...configured.values()].filter((c) => c.enabled && c.type === event.type)) fired.push(...(await runCalls(c, event.id)));
        firings.set(event.id, fired);
        return { event, fired };
      },
      fire: async (k, options = {}) => {
        const c = must(configured.get(k), 'configured event', k);
        const event = append({ type: c.type, content: options.content, caused_by: options.caused_by });
        const fired = await runCalls(c, event.id);
        firings.set(event.id, fired);
        return { event, fired };
      },
      trace: (k) => {
        const node = (e: EventRow): TraceNode => ({ event: e, fired: firings.get(e.id) ?? [], children: log.filter((c) => c.causation_id === e.id).map(node) });
        const root = log.find((e) => e.id === k);
        return root ? node(root) : null;
      },
      subscribe: () => () => {},
    },
  };

  function append(input: EmitInput): EventRow {
    const cause = input.caused_by ? log.find((e) => e.id === input.caused_by) : undefined;
    const event: EventRow = { id: id('evt'), type: input.type, agent_id: input.agent_id ?? null, session_id: input.session_id ?? null, quest_id: input.quest_id ?? null, content: input.content ?? null, created_at: now(), causation_id: cause?.id ?? null, correlation_id: cause?.correlation_id ?? '' };
    event.correlation_id ||= event.id;
    log.push(event);
    return event;
  }

  async function runCalls(c: ConfiguredEvent, causedBy: string): Promise<Firing[]> {
    const out: Firing[] = [];
    for (const call of c.tool_calls) {
      try {
        const args = call.args as Record<string, string>;
        const result =
          call.tool === 'quests.create' ? await services.quests.create({ title: args.title ?? c.type }) : call.tool === 'message_to' ? await services.messageTo({ to: args.to ?? '', text: args.text ?? '' }) : null;
        if (result === null) throw badRequest(`Unknown tool '${call.tool}'.`);
        if (call.tool === 'quests.create') await services.events.emit({ type: 'quest:created', quest_id: (result as Quest).id, caused_by: causedBy });
        out.push({ configured_event_id: c.id, tool: call.tool, ok: true, result });
      } catch (err) {
        out.push({ configured_event_id: c.id, tool: call.tool, ok: false, error: (err as Error).message });
      }
    }
    return out;
  }
  return services;
}

/** A RuntimeHost over fake services, one per Company, for createTestApp({ runtimes }). */
export function createFakeRuntimeHost(): RuntimeHost & { servicesOf(company: CompanyRef): CompanyServices } {
  const open = new Map<string, CompanyServices>();
  const servicesOf = (company: CompanyRef) => open.get(company.id) ?? open.set(company.id, createFakeServices(company)).get(company.id)!;
  return {
    servicesOf,
    open: async (company) => ({ services: servicesOf(company), handle: async () => {} }),
    close: async () => {},
  };
}
