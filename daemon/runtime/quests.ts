import { z } from 'zod';
import { ErrorCode } from '../../shared/errors.js';
import { conflict } from '../http/api-error.js';
import { boundedJson } from '../http/json-depth.js';
import { validate } from '../http/validate.js';
import { copy, nowIso, ownEntry, reportCause, requireAgent, requireQuest, requireSession, type RuntimeCore } from './core.js';
import type { CompanyServices, Quest, QuestStatus } from './services.js';

export const QUEST_STATUSES = ['open', 'in_progress', 'done', 'failed'] as const;

/** open → in_progress → done | failed; an open quest may also be closed directly; done and failed are final. */
const NEXT: Record<QuestStatus, QuestStatus[]> = {
  open: ['in_progress', 'done', 'failed'],
  in_progress: ['open', 'done', 'failed'],
  done: [],
  failed: [],
};

export const newQuestSchema = z.object({
  title: z.string().trim().min(1).max(500),
  agent_id: z.string().min(1).max(200).nullable().optional(),
  session_id: z.string().min(1).max(200).nullable().optional(),
});

export const questChangeSchema = z.object({
  status: z.enum(QUEST_STATUSES).optional(),
  result: boundedJson.optional(),
  agent_id: z.string().min(1).max(200).nullable().optional(),
  session_id: z.string().min(1).max(200).nullable().optional(),
  title: z.string().trim().min(1).max(500).optional(),
});

/**
 * Quests. Picking one up in a session (→ in_progress with a session) emits `session:quest_start`;
 * finishing it (→ done or failed) emits `session:quest_end`, then `session:quest_result` with the outcome.
 */
export function createQuestsService(core: RuntimeCore): CompanyServices['quests'] {
  /** A session given without an agent brings its agent along; both must exist and agree. */
  const resolveOwner = (agent_id: string | null | undefined, session_id: string | null | undefined) => {
    const session = session_id ? requireSession(core, session_id) : null;
    if (agent_id) requireAgent(core, agent_id);
    if (session && agent_id && session.agent_id !== agent_id) {
      throw conflict(`Session ${session.id} belongs to agent ${session.agent_id}, not ${agent_id}.`, ErrorCode.conflict);
    }
    return { agent_id: agent_id ?? session?.agent_id ?? null, session_id: session?.id ?? null };
  };

  return {
    async create(input, caused_by) {
      const body = validate(newQuestSchema, input);
      const owner = resolveOwner(body.agent_id, body.session_id);
      const at = nowIso(core);
      const quest: Quest = { id: core.ids('qst'), title: body.title, status: 'open', ...owner, result: null, created_at: at, updated_at: at };
      await core.docs.runtime.update((d) => void (d.quests[quest.id] = quest));
      void caused_by; // creating a quest is not a lifecycle moment: it starts when a session picks it up
      return copy(quest);
    },
    get: (id) => {
      const q = ownEntry(core.docs.runtime.data.quests, id);
      return q ? copy(q) : undefined;
    },
    list: (filter = {}) =>
      Object.values(core.docs.runtime.data.quests)
        .filter(
          (q) =>
            (filter.status === undefined || q.status === filter.status) &&
            (filter.agent_id === undefined || q.agent_id === filter.agent_id) &&
            (filter.session_id === undefined || q.session_id === filter.session_id),
        )
        .map(copy),
    async update(id, input, caused_by) {
      const body = validate(questChangeSchema, input);
      const before = copy(requireQuest(core, id));
      const owner =
        body.agent_id !== undefined || body.session_id !== undefined
          ? resolveOwner(body.agent_id === undefined ? before.agent_id : body.agent_id, body.session_id === undefined ? before.session_id : body.session_id)
          : null;
      const next = body.status ?? before.status;
      if (next !== before.status && !NEXT[before.status].includes(next)) {
        throw conflict(`Quest ${id} is ${before.status}; it cannot move to ${next}.`, ErrorCode.invalidTransition);
      }
      if (next === before.status && (next === 'done' || next === 'failed') && Object.keys(body).some((k) => k !== 'status')) {
        throw conflict(`Quest ${id} is ${before.status} and can no longer change.`, ErrorCode.invalidTransition);
      }
      const quest = await core.docs.runtime.update((d) => {
        const q = d.quests[id]!;
        if (owner) Object.assign(q, owner);
        if (body.title !== undefined) q.title = body.title;
        if (body.result !== undefined) q.result = body.result;
        q.status = next;
        q.updated_at = nowIso(core);
        return copy(q);
      });
      await emitQuestLifecycle(core, before, quest, caused_by);
      // Moved to done just now, without a result: agent:premature_completion (the reporter decides).
      if (before.status !== 'done' && quest.status === 'done') {
        await reportCause(core, (c) => c.reportQuestDone({ agent_id: quest.agent_id, session_id: quest.session_id, caused_by }, quest));
      }
      return copy(requireQuest(core, id));
    },
  };
}

async function emitQuestLifecycle(core: RuntimeCore, before: Quest, quest: Quest, caused_by: string | null | undefined): Promise<void> {
  if (!quest.session_id || before.status === quest.status) return;
  const about = { agent_id: quest.agent_id, session_id: quest.session_id, quest_id: quest.id, caused_by };
  if (quest.status === 'in_progress') {
    await core.emit({ type: 'session:quest_start', ...about, content: { title: quest.title } });
  } else if (quest.status === 'done' || quest.status === 'failed') {
    await core.emit({ type: 'session:quest_end', ...about, content: { title: quest.title, status: quest.status } });
    await core.emit({ type: 'session:quest_result', ...about, content: { status: quest.status, result: quest.result } });
  }
}
