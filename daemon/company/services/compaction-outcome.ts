import type { RuntimeSessionRecord } from '../../store/runtime-types.js';
import { nowIso, type RuntimeCore } from '../core.js';
import type { Quest, SessionCompaction } from '../company-services.js';

/** A summary is a non-empty string, or `{ "summary": "…" }`; at most this many characters. */
const MAX_SUMMARY = 100_000;

/** The summary a finished compaction quest returned, or why it is not one. */
export function summaryOf(quest: Quest): { summary: string } | { error: string } {
  if (quest.status === 'failed') return { error: `compaction quest ${quest.id} failed` };
  const r = quest.result as unknown;
  const text =
    typeof r === 'string'
      ? r
      : typeof (r as { summary?: unknown })?.summary === 'string'
        ? (r as { summary: string }).summary
        : '';
  if (text.trim() === '')
    return {
      error: `compaction quest ${quest.id} was done without a summary: its result must be a non-empty string or {"summary": "…"}`,
    };
  if (text.length > MAX_SUMMARY)
    return { error: `compaction quest ${quest.id} returned a summary over ${MAX_SUMMARY} characters` };
  return { summary: text };
}

/** The next state of a session whose compaction `c` ends with `outcome` (the session's context moves to the summary). */
function ended(
  s: RuntimeSessionRecord,
  c: SessionCompaction,
  outcome: { summary: string } | { error: string },
  at: string,
): RuntimeSessionRecord {
  if ('error' in outcome)
    return { ...s, compaction: { ...c, status: 'failed', error: outcome.error, finished_at: at } };
  // What was appended while the quest ran is not in the summary: it stays in the context after it.
  const since = Math.max(0, (s.context_used ?? 0) - c.context_used);
  return {
    ...s,
    context_used: outcome.summary.length + since,
    context_summary: { text: outcome.summary, quest_id: c.quest_id, covers: c.messages, at },
    compaction: { ...c, status: 'done', finished_at: at },
  };
}

/**
 * Ends the session's pending compaction of `questId` with `outcome`, once: check-and-set inside the
 * session's write, so of two callers (the quest's own update, a settle after a crash) exactly one
 * ends it and emits. A quest that is no longer the session's pending one (replaced after it expired,
 * or ended already) changes nothing: the session is never moved by a stale summary.
 */
export async function endCompaction(
  core: RuntimeCore,
  sessionId: string,
  questId: string,
  outcome: { summary: string } | { error: string },
  caused_by: string | null | undefined,
): Promise<boolean> {
  let ending: SessionCompaction | null = null;
  const at = nowIso(core);
  const s = await core.stores.sessions.update(sessionId, (s) => {
    const c = s.compaction;
    if (!c || c.quest_id !== questId || c.status !== 'pending') return s;
    ending = c;
    return ended(s, c, outcome, at);
  });
  const c = ending as SessionCompaction | null;
  if (!s || !c) return false;
  const failed = 'error' in outcome;
  await core.emit({
    type: failed ? 'context:compaction:failed' : 'context:compaction:done',
    agent_id: s.agent_id,
    session_id: sessionId,
    content: failed
      ? { quest_id: questId, role: c.role, error: outcome.error }
      : {
          quest_id: questId,
          role: c.role,
          covers: c.messages,
          summary_chars: outcome.summary.length,
          context_used: s.context_used,
        },
    // Hung under the start, so the trace of the crossing shows the whole path.
    caused_by: c.started_event_id ?? c.crossing_event_id ?? caused_by,
  });
  return true;
}

/** The message that hands the transcript off to the role's agent. */
export function handoffText(s: RuntimeSessionRecord, questId: string): string {
  const earlier = s.context_summary
    ? ` It already continues from a summary of messages 1-${s.context_summary.covers} (its context_summary): summarise that summary with messages ${s.context_summary.covers + 1}-${s.message_count}.`
    : ` Summarise messages 1-${s.message_count}.`;
  return (
    `Compaction quest ${questId}: session ${s.id} (agent ${s.agent_id}) holds ${s.context_used ?? 0} characters ` +
    `of context (budget ${s.context_budget ?? 'none'}).${earlier} Read its transcript with ` +
    `GET /api/sessions/${s.id} (or the MCP sessions tool, action get), then finish quest ${questId}: ` +
    `status done with the summary as its result (a string, or {"summary": "…"}). The session continues from your summary.`
  );
}
