import { z } from 'zod';
import { LIFECYCLE_PATTERNS } from '../../shared/patterns.js';
import { ErrorCode } from '../../shared/errors.js';
import { conflict } from '../http/api-error.js';
import { validate } from '../http/validate.js';
import { copy, nowIso, ownEntry, reportCause, requireAgent, requireSession, type RuntimeCore } from './core.js';
import type { CompanyServices, ConfiguredEvent, RuntimeSession } from './services.js';

/** Characters of transcript a session holds before `context:budget:exceeded`, unless it says otherwise. */
export const DEFAULT_CONTEXT_BUDGET = 100_000;

export const newSessionSchema = z.object({
  agent_id: z.string().min(1).max(200),
  gateway_channel_id: z.string().min(1).max(200).nullable().optional(),
  context_budget: z.number().int().min(1).nullable().optional(),
});

type Sessions = Required<CompanyServices['sessions']>;
type Cause = string | null | undefined;

/**
 * Sessions and their lifecycle (spec §6.2). Every state change emits its pattern right where it
 * happens (§6.5 rule 3), after the change is stored, so a configured event that reacts sees it.
 */
export function createSessionsService(core: RuntimeCore): Sessions {
  const live = (id: string) => requireSession(core, id);
  const about = (s: RuntimeSession) => ({ agent_id: s.agent_id, session_id: s.id });

  /** Runs a change on a session that must still be active; 409 once it is stopped. */
  const change = (id: string, fn: (s: RuntimeSession) => void) =>
    core.docs.runtime.update((d) => {
      const s = ownEntry(d.sessions, id) ?? requireSession(core, id); // the live record, or a 404
      if (s.status === 'stopped') throw conflict(`Session ${id} is stopped.`, ErrorCode.sessionStopped);
      fn(s);
      return copy(s);
    });

  const service: Sessions = {
    async create(input, caused_by) {
      const body = validate(newSessionSchema, input);
      requireAgent(core, body.agent_id);
      const at = nowIso(core);
      const session: RuntimeSession = {
        id: core.ids('ses'),
        agent_id: body.agent_id,
        status: 'active',
        gateway_channel_id: body.gateway_channel_id ?? null,
        transcript: [],
        created_at: at,
        turn_status: 'idle',
        turns_completed: 0,
        context_budget: body.context_budget === undefined ? DEFAULT_CONTEXT_BUDGET : body.context_budget,
        context_used: 0,
        stopped_at: null,
      };
      // The nine lifecycle patterns, seeded for this session as no-op markers that users extend.
      const markers: ConfiguredEvent[] = LIFECYCLE_PATTERNS.map((type) => ({
        id: core.ids('cev'),
        type,
        tool_calls: [],
        agent_id: null,
        session_id: session.id,
        quest_id: null,
        enabled: true,
        status: 'active',
        matcher: null,
        timezone: null,
        created_at: at,
      }));
      await core.docs.runtime.update((d) => {
        d.sessions[session.id] = session;
        for (const m of markers) d.configured[m.id] = m;
      });
      markers.forEach(core.indexConfigured);
      await core.emit({ type: 'session:start', ...about(session), content: { agent_id: session.agent_id, gateway_channel_id: session.gateway_channel_id }, caused_by });
      return copy(live(session.id));
    },
    get: (id) => {
      const s = ownEntry(core.docs.runtime.data.sessions, id);
      return s ? copy(s) : undefined;
    },
    list: (filter = {}) =>
      Object.values(core.docs.runtime.data.sessions)
        .filter((s) => (filter.agent_id === undefined || s.agent_id === filter.agent_id) && (filter.status === undefined || s.status === filter.status))
        .map(copy),
    async stop(id, caused_by) {
      const before = live(id);
      if (before.status === 'stopped') return copy(before); // stopping twice is a no-op, emitted once
      const s = await change(id, (s) => {
        s.status = 'stopped';
        s.turn_status = 'idle';
        s.stopped_at = nowIso(core);
      });
      await core.emit({ type: 'session:stopped', ...about(s), content: { turns_completed: s.turns_completed }, caused_by });
      return copy(live(id));
    },
    async append(id, entry, options = {}) {
      const text = String(entry.text);
      let crossed = false;
      const s = await change(id, (s) => {
        const used = (s.context_used ?? 0) + text.length;
        // Fire on the crossing, not on every message after it: one signal per overflow.
        crossed = s.context_budget != null && (s.context_used ?? 0) <= s.context_budget && used > s.context_budget;
        s.context_used = used;
        s.transcript.push({ at: nowIso(core), from: String(entry.from), text });
      });
      if (crossed) await core.emit({ type: 'context:budget:exceeded', ...about(s), content: { budget: s.context_budget, used: s.context_used }, caused_by: options.caused_by });
      // The agent's own output goes to the detectors (guardrail:violation, loop:detected); users' messages do not.
      if (isAgentAuthor(core, s, String(entry.from))) await reportCause(core, (c) => c.reportOutput({ ...about(s), caused_by: options.caused_by }, text));
      if (options.startTurn) return service.startTurn(id, options.caused_by);
      return copy(live(id));
    },
    async startTurn(id, caused_by) {
      if (live(id).turn_status === 'running' && live(id).status === 'active') return copy(live(id)); // a message mid-turn joins that turn
      const s = await change(id, (s) => void (s.turn_status = 'running'));
      await core.emit({ type: 'session:execution_start', ...about(s), content: { turn: (s.turns_completed ?? 0) + 1 }, caused_by });
      return copy(live(id));
    },
    async step(id, caused_by) {
      const s = await change(id, (s) => {
        if (s.turn_status !== 'running') throw conflict(`Session ${id} has no turn running: start one first.`, ErrorCode.invalidTransition);
      });
      await core.emit({ type: 'session:step_start', ...about(s), content: { turn: (s.turns_completed ?? 0) + 1 }, caused_by });
      return copy(live(id));
    },
    async completeTurn(id, caused_by) {
      const s = await change(id, (s) => {
        if (s.turn_status !== 'running') throw conflict(`Session ${id} has no turn running to complete.`, ErrorCode.invalidTransition);
        s.turn_status = 'idle';
        s.turns_completed = (s.turns_completed ?? 0) + 1;
      });
      if (s.turns_completed === 1) await core.emit({ type: 'session:first_execution_complete', ...about(s), content: { turn: 1 }, caused_by });
      return copy(live(id));
    },
    async update(id, change_, caused_by) {
      if (change_.gateway_channel_id !== undefined || change_.context_budget !== undefined) {
        await change(id, (s) => {
          if (change_.gateway_channel_id !== undefined) s.gateway_channel_id = change_.gateway_channel_id;
          if (change_.context_budget !== undefined) s.context_budget = change_.context_budget;
        });
      }
      if (change_.status === 'stopped') return service.stop(id, caused_by);
      return copy(live(id));
    },
  };
  return service;
}

/** A message is the agent's own when `from` is its id, its name (case-insensitive), or `agent`. */
function isAgentAuthor(core: RuntimeCore, s: RuntimeSession, from: string): boolean {
  if (from === s.agent_id || from.toLowerCase() === 'agent') return true;
  const name = core.docs.runtime.data.agents[s.agent_id]?.name;
  return name !== undefined && name.toLowerCase() === from.toLowerCase();
}
