import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { boundedJson } from '../../http/json-depth.js';
import { conflicting, parseInput } from '../../domain-error.js';
import {
  copy,
  nowIso,
  orMissing,
  reportCause,
  requireAgent,
  requireQuest,
  requireSession,
  type RuntimeCore,
} from '../core.js';
import type { CompanyServices, Quest, QuestStatus } from '../company-services.js';
import { QUEST_STATUSES } from '../../../shared/schemas/runtime.js';
import { storableText } from '../../../shared/schemas/storable-text.js';

export { QUEST_STATUSES };

/** open → in_progress → done | failed; an open quest may also be closed directly; done and failed are final. */
const NEXT: Record<QuestStatus, QuestStatus[]> = {
  open: ['in_progress', 'done', 'failed'],
  in_progress: ['open', 'done', 'failed'],
  done: [],
  failed: [],
};

const id = z.string().min(1).max(200).check(storableText);

export const newQuestSchema = z.object({
  title: z.string().trim().min(1).max(500),
  agent_id: id.nullable().optional(),
  session_id: id.nullable().optional(),
});

export const questChangeSchema = z.object({
  status: z.enum(QUEST_STATUSES).optional(),
  result: boundedJson.optional(),
  agent_id: id.nullable().optional(),
  session_id: id.nullable().optional(),
  title: z.string().trim().min(1).max(500).optional(),
});

/**
 * Quests. Picking one up in a session (→ in_progress with a session) emits `session:quest_start`;
 * finishing it (→ done or failed) emits `session:quest_end`, then `session:quest_result` with the outcome.
 */
export function createQuestsService(core: RuntimeCore): CompanyServices['quests'] {
  /** A session given without an agent brings its agent along; both must exist and agree. */
  const quests = core.stores.quests;
  const resolveOwner = async (agent_id: string | null | undefined, session_id: string | null | undefined) => {
    const session = session_id ? await requireSession(core, session_id) : null;
    if (agent_id) await requireAgent(core, agent_id);
    if (session && agent_id && session.agent_id !== agent_id) {
      throw conflicting(
        `Session ${session.id} belongs to agent ${session.agent_id}, not ${agent_id}.`,
        ErrorCode.conflict,
      );
    }
    return { agent_id: agent_id ?? session?.agent_id ?? null, session_id: session?.id ?? null };
  };

  return {
    async create(input, caused_by) {
      const body = parseInput(newQuestSchema, input);
      const owner = await resolveOwner(body.agent_id, body.session_id);
      const at = nowIso(core);
      const quest: Quest = {
        id: core.ids('qst'),
        title: body.title,
        status: 'open',
        ...owner,
        result: null,
        created_at: at,
        updated_at: at,
      };
      await quests.create(quest);
      void caused_by; // creating a quest is not a lifecycle moment: it starts when a session picks it up
      return copy(quest);
    },
    get: async (id) => {
      const q = await quests.get(id);
      return q ? copy(q) : undefined;
    },
    list: async (filter = {}) => (await quests.list(filter)).map(copy),
    async update(id, input, caused_by) {
      const body = parseInput(questChangeSchema, input);
      const before = await requireQuest(core, id);
      const owner =
        body.agent_id !== undefined || body.session_id !== undefined
          ? await resolveOwner(
              body.agent_id === undefined ? before.agent_id : body.agent_id,
              body.session_id === undefined ? before.session_id : body.session_id,
            )
          : null;
      checkTransition(before, body);
      let seen = before;
      // Checked again inside the write, against the quest as it is then: two racing moves cannot both pass.
      const updated = await quests.update(id, (q) => {
        seen = q;
        return {
          ...q,
          ...owner,
          ...(body.title !== undefined && { title: body.title }),
          ...(body.result !== undefined && { result: body.result }),
          status: checkTransition(q, body),
          updated_at: nowIso(core),
        };
      });
      const quest = orMissing(updated, 'quest', id);
      await emitQuestLifecycle(core, seen, quest, caused_by);
      // A compaction quest that just ended: its session continues from the summary (or stays as it was).
      if (seen.status !== quest.status && (quest.status === 'done' || quest.status === 'failed'))
        await core.compaction?.questFinished(quest, caused_by);
      // Moved to done just now, without a result: agent:premature_completion (the reporter decides).
      if (seen.status !== 'done' && quest.status === 'done') {
        await reportCause(core, (c) =>
          c.reportQuestDone({ agent_id: quest.agent_id, session_id: quest.session_id, caused_by }, quest),
        );
      }
      return copy(await requireQuest(core, id));
    },
  };
}

/** The status a change moves the quest to, or a 409 when its state machine refuses the change. */
function checkTransition(q: Quest, body: Record<string, unknown> & { status?: QuestStatus }): QuestStatus {
  const next = body.status ?? q.status;
  if (next !== q.status && !NEXT[q.status].includes(next)) {
    throw conflicting(`Quest ${q.id} is ${q.status}; it cannot move to ${next}.`, ErrorCode.invalidTransition);
  }
  if (next === q.status && (next === 'done' || next === 'failed') && Object.keys(body).some((k) => k !== 'status')) {
    throw conflicting(`Quest ${q.id} is ${q.status} and can no longer change.`, ErrorCode.invalidTransition);
  }
  return next;
}

async function emitQuestLifecycle(
  core: RuntimeCore,
  before: Quest,
  quest: Quest,
  caused_by: string | null | undefined,
): Promise<void> {
  if (!quest.session_id || before.status === quest.status) return;
  const about = { agent_id: quest.agent_id, session_id: quest.session_id, quest_id: quest.id, caused_by };
  if (quest.status === 'in_progress') {
    await core.emit({ type: 'session:quest_start', ...about, content: { title: quest.title } });
  } else if (quest.status === 'done' || quest.status === 'failed') {
    await core.emit({ type: 'session:quest_end', ...about, content: { title: quest.title, status: quest.status } });
    await core.emit({
      type: 'session:quest_result',
      ...about,
      content: { status: quest.status, result: quest.result },
    });
  }
}
