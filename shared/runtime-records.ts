export { EVENT_SOURCES, type EventRow, type EventSource } from './event-row.js';
export type * from './configured-event.js';
export type * from './firings.js';

/**
 * The records of one Company's runtime as the API sends them and the stores keep them: agents,
 * sessions, quests here; configured events in configured-event.ts, what an event fired (firings,
 * trace) in firings.ts, both re-exported. Wire shapes, so they live in shared/: the CLI and the
 * console read them, the stores persist them, and neither may import the daemon's services
 * (.dependency-cruiser.cjs). Fields may grow; names here are relied on.
 */
export interface Agent {
  id: string;
  name: string;
  role: string | null;
  created_at: string;
}

export interface TranscriptEntry {
  at: string;
  from: string;
  text: string;
}

export interface RuntimeSession {
  id: string;
  agent_id: string;
  /** `active` until stopped. */
  status: string;
  gateway_channel_id: string | null;
  /** The whole transcript on a read; the newest ANSWER_TAIL messages in the answer to a change. */
  transcript: TranscriptEntry[];
  /** How many messages the whole transcript holds. */
  transcript_total?: number;
  created_at: string;
  /** `running` between a turn's start and its completion. */
  turn_status?: 'idle' | 'running';
  turns_completed?: number;
  /** Characters of transcript the session may hold before `context:budget:exceeded`; null: no budget. */
  context_budget?: number | null;
  context_used?: number;
  stopped_at?: string | null;
  /** The latest compaction as delegation of this session, and the summary its context continues from. */
  compaction?: SessionCompaction | null;
  context_summary?: ContextSummary | null;
}

/**
 * Where a session's compaction as delegation stands (docs/events.md): its transcript handed off as
 * a quest to a role; `done` once the quest returned a summary, `failed` when it failed or returned
 * none. A `pending` one past `expires_at` no longer blocks a new one.
 */
export interface SessionCompaction {
  status: 'pending' | 'done' | 'failed';
  role: string;
  quest_id: string;
  /** The role's agent that got the quest, and the session it got it in (null until handed off). */
  agent_id: string | null;
  worker_session_id: string | null;
  /** The `context:budget:exceeded` event that started it (null when started by hand), and its `context:compaction:started`. */
  crossing_event_id: string | null;
  started_event_id: string | null;
  /** How many messages were handed off (the transcript's first `messages`), and `context_used` then. */
  messages: number;
  context_used: number;
  started_at: string;
  expires_at: string;
  finished_at: string | null;
  error: string | null;
}

/** The summary a session continues from: its context is `text`, then the transcript from message `covers` on. */
export interface ContextSummary {
  text: string;
  quest_id: string;
  /** The transcript's first `covers` messages are summarised by `text`. */
  covers: number;
  at: string;
}

export type QuestStatus = 'open' | 'in_progress' | 'done' | 'failed';

export interface Quest {
  id: string;
  title: string;
  status: QuestStatus;
  agent_id: string | null;
  session_id: string | null;
  result: unknown;
  created_at: string;
  updated_at: string;
  /** Set on a compaction quest: the session whose transcript it summarises. */
  compaction_of?: string | null;
}
