/**
 * The stores each Company runtime opens for its emitters (issue 7): the scheduler's tick cursors,
 * the questions desk and the webhook channels. Re-exported by types.ts with the rest of the seam.
 */

// --- schedules (issue 7): the scheduler's tick cursors, one store per Company runtime ---

/** Where one scheduled event stands. Ticks at or before `last_tick` or `baseline` never fire. */
export interface TickCursor {
  /** The latest tick claimed (fired or being fired); a tick's identity is (event id, tick time). */
  last_tick: string | null;
  /** Whether the scheduler last saw the event active; false while paused or armed. */
  active: boolean;
  /** When it (last) became active: ticks before its creation or re-enabling never fire. */
  baseline: string;
}

/** One change of a walk: set the active state and baseline, and/or claim a tick. */
export interface TickUpdate {
  id: string;
  active: boolean;
  baseline?: string;
  /** Claim this tick: refused when it is not later than the cursor's `last_tick` (already claimed). */
  tick?: string;
}

export interface TickStore {
  get(id: string): Readonly<TickCursor> | undefined;
  /**
   * Applies a walk's updates in one atomic, durable write and returns the ticks it claimed. A tick
   * is claimed here before it fires, so two walks (or a walk after a restart) never fire it twice.
   */
  commit(updates: TickUpdate[]): Promise<Array<{ id: string; tick: string }>>;
  /** Drops the cursors of deleted events. */
  forget(ids: string[]): Promise<void>;
  /** Ids with a cursor. */
  ids(): string[];
}

// --- questions (issue 7): decision requests agents raise, one store per Company runtime ---

export interface QuestionRecord {
  id: string;
  agent_id: string;
  session_id: string | null;
  quest_id: string | null;
  question: string;
  /** When set, the answer must be one of these. */
  options: string[] | null;
  /** The `question:asked` event: the answer's cause, so trace links the two. */
  asked_event_id: string | null;
  status: 'open' | 'answered';
  answer: string | null;
  answered_by: string | null;
  created_at: string;
  answered_at: string | null;
}

export type AnswerOutcome =
  | { ok: true; record: QuestionRecord }
  | { ok: false; reason: 'not_found' | 'already_answered' };

export interface QuestionStore {
  add(record: QuestionRecord): Promise<QuestionRecord>;
  get(id: string): QuestionRecord | undefined;
  /** Oldest first. */
  list(filter?: { status?: 'open' | 'answered'; agent_id?: string; session_id?: string }): QuestionRecord[];
  /** Records the answer once, atomically: of two concurrent answers exactly one wins. */
  answer(id: string, answer: string, by: string, atIso: string): Promise<AnswerOutcome>;
}

// --- webhook channels (issue 7): one store per Company runtime; secrets are sealed, never plain ---

type ChannelRecord = import('../events/channels/channel-secrets.js').ChannelRecord;

export interface ChannelStore {
  get(name: string): ChannelRecord | undefined;
  /** Oldest first. */
  list(): ChannelRecord[];
  /** Fails with StoreConflict('channel_exists') when the name is taken. */
  create(record: ChannelRecord): Promise<void>;
  /** Replaces a channel's record (a rotation); false when there is no such channel. */
  replace(record: ChannelRecord): Promise<boolean>;
  /** False when there is no such channel. */
  delete(name: string): Promise<boolean>;
}
