import * as z from 'zod';
import { LIFECYCLE_PATTERNS } from '../../../shared/patterns.js';
import { ErrorCode } from '../../../shared/errors.js';
import { conflicting, parseInput } from '../../domain-error.js';
import { nowIso, orMissing, reportCause, requireAgent, requireSession, type RuntimeCore } from '../core.js';
import type { RuntimeSessionRecord } from '../../store/runtime-types.js';
import type { CompanyServices, ConfiguredEvent, RuntimeSession, TranscriptEntry } from '../company-services.js';
import { storableText } from '../../../shared/schemas/storable-text.js';

/** Characters of transcript a session holds before `context:budget:exceeded`, unless it says otherwise. */
const DEFAULT_CONTEXT_BUDGET = 100_000;

const newSessionSchema = z.object({
  agent_id: z.string().min(1).max(200).check(storableText),
  gateway_channel_id: z.string().min(1).max(200).check(storableText).nullable().optional(),
  context_budget: z.number().int().min(1).nullable().optional(),
});

type Sessions = Required<CompanyServices['sessions']>;

/**
 * Sessions and their lifecycle (spec §6.2). Every state change emits its pattern right where it
 * happens (§6.5 rule 3), after the change is stored, so a configured event that reacts sees it.
 */
export function createSessionsService(core: RuntimeCore): Sessions {
  const { sessions, transcripts } = core.stores;
  const live = (id: string) => requireSession(core, id);
  /**
   * The session as a change answers it: its record with the last ANSWER_TAIL messages of its
   * transcript and `transcript_total`. A turn or a message then costs the same at message 10 and at
   * message 100,000; GET /api/sessions/:id has the whole transcript.
   */
  const view = async (id: string) => {
    const record = await live(id);
    const { entries, total } = await transcripts.tail(id, ANSWER_TAIL);
    return presentSession(record, entries, total);
  };
  const about = (s: RuntimeSessionRecord) => ({ agent_id: s.agent_id, session_id: s.id });

  /** A change to a session that must still be active; 409 once it is stopped. */
  const active = (id: string, fn: (s: RuntimeSessionRecord) => RuntimeSessionRecord) => (s: RuntimeSessionRecord) => {
    if (s.status === 'stopped') throw conflicting(`Session ${id} is stopped.`, ErrorCode.sessionStopped);
    return fn(s);
  };
  const change = async (id: string, fn: (s: RuntimeSessionRecord) => RuntimeSessionRecord) =>
    orMissing(await sessions.update(id, active(id, fn)), 'session', id);

  const service: Sessions = {
    async create(input, caused_by) {
      const body = parseInput(newSessionSchema, input);
      await requireAgent(core, body.agent_id);
      const at = nowIso(core);
      const session: RuntimeSessionRecord = {
        id: core.ids('ses'),
        agent_id: body.agent_id,
        status: 'active',
        gateway_channel_id: body.gateway_channel_id ?? null,
        created_at: at,
        turn_status: 'idle',
        turns_completed: 0,
        context_budget: body.context_budget === undefined ? DEFAULT_CONTEXT_BUDGET : body.context_budget,
        context_used: 0,
        stopped_at: null,
        message_count: 0,
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
      await sessions.create(session, markers);
      await core.emit({
        type: 'session:start',
        ...about(session),
        content: { agent_id: session.agent_id, gateway_channel_id: session.gateway_channel_id },
        caused_by,
      });
      return view(session.id);
    },
    get: async (id) => {
      const s = await sessions.get(id);
      return s ? presentSession(s, await transcripts.list(id), s.message_count) : undefined;
    },
    list: async (filter = {}) =>
      Promise.all(
        (await sessions.list(filter)).map(async (s) =>
          presentSession(s, await transcripts.list(s.id), s.message_count),
        ),
      ),
    async stop(id, caused_by) {
      if ((await live(id)).status === 'stopped') return view(id); // stopping twice is a no-op, emitted once
      let already = false;
      // Decided inside the write too: of two racing stops, one stops and emits, the other is the no-op.
      const updated = await sessions.update(id, (s) => {
        if (s.status === 'stopped') return ((already = true), s);
        return { ...s, status: 'stopped', turn_status: 'idle', stopped_at: nowIso(core) };
      });
      const s = orMissing(updated, 'session', id);
      if (!already)
        await core.emit({
          type: 'session:stopped',
          ...about(s),
          content: { turns_completed: s.turns_completed },
          caused_by,
        });
      return view(id);
    },
    async append(id, entry, options = {}) {
      const text = String(entry.text);
      let crossed = false;
      const message = { at: nowIso(core), from: String(entry.from), text };
      const appended = await transcripts.append(
        id,
        message,
        active(id, (s) => {
          const used = (s.context_used ?? 0) + text.length;
          // Fire on the crossing, not on every message after it: one signal per overflow.
          crossed = s.context_budget != null && (s.context_used ?? 0) <= s.context_budget && used > s.context_budget;
          return { ...s, context_used: used };
        }),
      );
      const s = orMissing(appended, 'session', id);
      // A compaction whose quest ended while this session missed it (a crash) ends now.
      if (s.compaction?.status === 'pending') await core.compaction?.settle(id);
      if (crossed) {
        const exceeded = await core.emit({
          type: 'context:budget:exceeded',
          ...about(s),
          content: { budget: s.context_budget, used: s.context_used },
          caused_by: options.caused_by,
        });
        // After the event has fired its configured tool calls, as before: the platform path (when configured).
        await core.compaction?.crossed(id, exceeded.event.id);
      }
      // The agent's own output goes to the detectors (guardrail:violation, loop:detected); users' messages do not.
      if (!options.external && (await isAgentAuthor(core, s, String(entry.from))))
        await reportCause(core, (c) => c.reportOutput({ ...about(s), caused_by: options.caused_by }, text));
      if (options.startTurn) return service.startTurn(id, options.caused_by);
      return view(id);
    },
    async startTurn(id, caused_by) {
      const now = await live(id);
      if (now.turn_status === 'running' && now.status === 'active') return view(id); // a message mid-turn joins that turn
      let joined = false;
      const s = await change(id, (s) =>
        s.turn_status === 'running' ? ((joined = true), s) : { ...s, turn_status: 'running' },
      );
      if (!joined)
        await core.emit({
          type: 'session:execution_start',
          ...about(s),
          content: { turn: (s.turns_completed ?? 0) + 1 },
          caused_by,
        });
      return view(id);
    },
    async step(id, caused_by) {
      const s = await change(id, (s) => {
        if (s.turn_status !== 'running')
          throw conflicting(`Session ${id} has no turn running: start one first.`, ErrorCode.invalidTransition);
        return s;
      });
      await core.emit({
        type: 'session:step_start',
        ...about(s),
        content: { turn: (s.turns_completed ?? 0) + 1 },
        caused_by,
      });
      return view(id);
    },
    async completeTurn(id, caused_by) {
      const s = await change(id, (s) => {
        if (s.turn_status !== 'running')
          throw conflicting(`Session ${id} has no turn running to complete.`, ErrorCode.invalidTransition);
        return { ...s, turn_status: 'idle', turns_completed: (s.turns_completed ?? 0) + 1 };
      });
      if (s.turns_completed === 1)
        await core.emit({ type: 'session:first_execution_complete', ...about(s), content: { turn: 1 }, caused_by });
      return view(id);
    },
    async update(id, change_, caused_by) {
      if (change_.gateway_channel_id !== undefined || change_.context_budget !== undefined) {
        await change(id, (s) => ({
          ...s,
          ...(change_.gateway_channel_id !== undefined && { gateway_channel_id: change_.gateway_channel_id }),
          ...(change_.context_budget !== undefined && { context_budget: change_.context_budget }),
        }));
      }
      if (change_.status === 'stopped') return service.stop(id, caused_by);
      return view(id);
    },
    async compact(id, options = {}, caused_by) {
      if (!core.compaction) throw new Error('compaction is not wired in this runtime');
      const answer = await core.compaction.start(id, options.role, caused_by);
      return { ...answer, session: await view(id) };
    },
  };
  return service;
}

/** A message is the agent's own when `from` is its id, its name (case-insensitive), or `agent`. */
async function isAgentAuthor(core: RuntimeCore, s: RuntimeSessionRecord, from: string): Promise<boolean> {
  if (from === s.agent_id || from.toLowerCase() === 'agent') return true;
  const name = (await core.stores.agents.get(s.agent_id))?.name;
  return name !== undefined && name.toLowerCase() === from.toLowerCase();
}

/** Messages of the transcript that the answer to a change carries (the newest ones). */
const ANSWER_TAIL = 100;

/**
 * The API's session: the stored record, its transcript where it always stood (before `created_at`),
 * and `transcript_total`, how many messages the whole transcript holds.
 */
function presentSession(record: RuntimeSessionRecord, transcript: TranscriptEntry[], total: number): RuntimeSession {
  const { message_count: _, ...rest } = record;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(structuredClone(rest))) {
    if (k === 'created_at') out.transcript = transcript;
    out[k] = v;
  }
  if (!('transcript' in out)) out.transcript = transcript;
  out.transcript_total = total;
  return out as unknown as RuntimeSession;
}
