import { ErrorCode } from '../../../shared/errors.js';
import { conflicting, invalid, missing } from '../../domain-error.js';
import { endCompaction, handoffText, summaryOf } from './compaction-outcome.js';
import { copy, nowIso, requireSession, type CompactionHooks, type CompactStart, type RuntimeCore } from '../core.js';
import type { CompanyServices, Quest, SessionCompaction } from '../company-services.js';

/** How long a handed-off quest may take before a new compaction may replace it (docs/events.md). */
const DEFAULT_COMPACTION_TIMEOUT_MS = 3600_000;

export interface CompactionOptions {
  /** The role (or agent id) a session's transcript is handed to when it crosses its budget; unset: no compaction. */
  role?: string | null;
  timeoutMs?: number;
}

type Deps = {
  messageTo: CompanyServices['messageTo'];
  onProblem(message: string, fields: Record<string, unknown>): void;
};

/**
 * Compaction as delegation (spec §6.2): the session's transcript is handed off as a quest
 * to a role, and the session continues from the summary the quest returns. Each step is one
 * atomic write, ordered so a crash between two leaves the session usable: the claim comes first
 * (so one crossing starts one compaction), the quest and the hand-off after it, and the ending is
 * a check-and-set that a later append (settle) redoes when the quest ended but the session missed it.
 */
export function createCompaction(core: RuntimeCore, options: CompactionOptions, deps: Deps): CompactionHooks {
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMPACTION_TIMEOUT_MS;
  const { sessions, quests, agents } = core.stores;
  const problem = (err: unknown, session_id: string) =>
    deps.onProblem('compaction failed', { session_id, err: String((err as Error)?.message ?? err) });

  /** A pending compaction whose quest ended while the session missed it (a crash): end it now. */
  const settle = async (id: string) => {
    const c = (await sessions.get(id))?.compaction;
    if (c?.status !== 'pending') return;
    const quest = await quests.get(c.quest_id);
    if (quest && (quest.status === 'done' || quest.status === 'failed'))
      await endCompaction(core, id, quest.id, summaryOf(quest), null);
  };

  const start = async (id: string, role: string, caused_by: string | null): Promise<CompactStart> => {
    await settle(id);
    if ((await requireSession(core, id)).status === 'stopped')
      throw conflicting(`Session ${id} is stopped.`, ErrorCode.sessionStopped);
    const present = (started: boolean, quest: Quest | undefined) => ({ started, quest: quest ? copy(quest) : null });
    const now = core.clock.now();
    const quest_id = core.ids('qst');
    let pending: SessionCompaction | null = null;
    // The claim: of two starts for one crossing (the daemon's role and a rule's sessions.compact),
    // one claims and the other answers the pending compaction.
    const s = await sessions.update(id, (s) => {
      const c = s.compaction;
      if (c?.status === 'pending' && Date.parse(c.expires_at) > now) return ((pending = c), s);
      const compaction: SessionCompaction = {
        status: 'pending',
        role,
        quest_id,
        agent_id: null,
        worker_session_id: null,
        crossing_event_id: caused_by,
        started_event_id: null,
        messages: s.message_count,
        context_used: s.context_used ?? 0,
        started_at: new Date(now).toISOString(),
        expires_at: new Date(now + timeoutMs).toISOString(),
        finished_at: null,
        error: null,
      };
      return { ...s, compaction };
    });
    if (!s) throw missing(`No session ${id} in this Company.`, ErrorCode.sessionNotFound);
    if (pending) return present(false, await quests.get((pending as SessionCompaction).quest_id));
    try {
      if (!(await agents.get(role)) && (await agents.withRole(role)).length === 0)
        throw missing(`No agent has the id or role '${role}' in this Company.`, ErrorCode.noAgentForRecipient);
      const at = nowIso(core);
      await quests.create({
        id: quest_id,
        title: `Summarise session ${id} (messages 1-${s.message_count})`,
        status: 'open',
        agent_id: null,
        session_id: null,
        result: null,
        created_at: at,
        updated_at: at,
        compaction_of: id,
      });
      const text = handoffText(s, quest_id);
      const handed = await deps.messageTo({ to: role, text, from: 'compaction' }, caused_by);
      const quest = await quests.update(quest_id, (q) => ({ ...q, ...handed }));
      const started = await core.emit({
        type: 'context:compaction:started',
        agent_id: s.agent_id,
        session_id: id,
        content: {
          quest_id,
          role,
          worker_agent_id: handed.agent_id,
          worker_session_id: handed.session_id,
          messages: s.message_count,
          context_used: s.context_used ?? 0,
        },
        caused_by,
      });
      await sessions.update(id, (s) =>
        s.compaction?.quest_id === quest_id
          ? {
              ...s,
              compaction: {
                ...s.compaction,
                agent_id: handed.agent_id,
                worker_session_id: handed.session_id,
                started_event_id: started.event.id,
              },
            }
          : s,
      );
      return present(true, quest);
    } catch (err) {
      // Nothing was handed off, or not all of it: the session stays as it was, its compaction failed.
      await quests.update(quest_id, (q) => (q.status === 'open' ? { ...q, status: 'failed' } : q)).catch(() => {});
      await endCompaction(core, id, quest_id, { error: String((err as Error)?.message ?? err) }, caused_by);
      return present(false, await quests.get(quest_id));
    }
  };

  return {
    role: options.role ?? null,
    async crossed(sessionId, eventId) {
      if (!options.role) return; // not configured: the event fires its configured tool calls, as before
      await start(sessionId, options.role, eventId).catch((err) => problem(err, sessionId));
    },
    async questFinished(quest, caused_by) {
      if (!quest.compaction_of) return;
      await endCompaction(core, quest.compaction_of, quest.id, summaryOf(quest), caused_by).catch((err) =>
        problem(err, quest.compaction_of!),
      );
    },
    settle: (id) => settle(id).catch((err) => problem(err, id)),
    start(id, role, caused_by) {
      const chosen = role ?? options.role;
      if (!chosen)
        throw invalid(
          'role is required: no compaction role is configured on this daemon (--compaction-role / SVC_COMPACTION_ROLE).',
          ErrorCode.validationFailed,
        );
      return start(id, chosen, caused_by ?? null);
    },
  };
}
