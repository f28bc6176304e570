/**
 * The per-Company half of the storage seam: every record one Company runtime keeps. Reads are async
 * like writes, so a database can implement them. `store/runtime/` implements them once over the
 * record engine (memory or journal); re-exported by types.ts with the rest of the seam.
 */
import type {
  Agent,
  ConfiguredEvent,
  Firing,
  NotFired,
  Quest,
  QuestStatus,
  RuntimeSession,
  TranscriptEntry,
} from '../../shared/runtime-records.js';
import type { RetryChange, RetryStore } from './retry-types.js';
import type { IdempotencyStore } from './idempotency-types.js';
import type { WindowStore } from './window-types.js';
import type { FlowStore } from './flow-types.js';
import type { FailureStore } from './failure-types.js';

export type { IdempotencyClaim, IdempotencyStore, RememberedAnswer } from './idempotency-types.js';
export type { PendingRetry, RetryChange, RetryStore } from './retry-types.js';

export interface AgentStore {
  get(id: string): Promise<Agent | undefined>;
  /** Oldest first. */
  list(): Promise<Agent[]>;
  /** The agents of a role, oldest first. */
  withRole(role: string): Promise<Agent[]>;
  create(agent: Agent): Promise<void>;
}

/** A session as stored: its transcript lives in the TranscriptStore, one record per message. */
export type RuntimeSessionRecord = Omit<RuntimeSession, 'transcript'> & { message_count: number };

/** A change to one record, run inside the store's atomic write: returns the new record or throws (nothing changes). */
export type RecordChange<T> = (current: T) => T;

export interface RuntimeSessionStore {
  get(id: string): Promise<RuntimeSessionRecord | undefined>;
  /** Oldest first. */
  list(filter?: { agent_id?: string; status?: string; gateway_channel_id?: string }): Promise<RuntimeSessionRecord[]>;
  /** Creates the session and the configured events seeded for it, in one atomic write. */
  create(session: RuntimeSessionRecord, seeded: ConfiguredEvent[]): Promise<void>;
  /** Check-and-set; undefined when there is no such session. */
  update(id: string, change: RecordChange<RuntimeSessionRecord>): Promise<RuntimeSessionRecord | undefined>;
}

export interface TranscriptStore {
  /** The session's messages, oldest first. */
  list(sessionId: string): Promise<TranscriptEntry[]>;
  /** The last `count` messages, oldest first, and how many the transcript holds: costs `count`, not the history. */
  tail(sessionId: string, count: number): Promise<{ entries: TranscriptEntry[]; total: number }>;
  /**
   * Appends one message and applies `change` to its session in the same atomic write; costs one
   * message record and one session record, however long the transcript. Undefined: no such session.
   */
  append(
    sessionId: string,
    entry: TranscriptEntry,
    change: RecordChange<RuntimeSessionRecord>,
  ): Promise<RuntimeSessionRecord | undefined>;
}

export interface QuestStore {
  get(id: string): Promise<Quest | undefined>;
  /** Oldest first. */
  list(filter?: { status?: QuestStatus; agent_id?: string; session_id?: string }): Promise<Quest[]>;
  create(quest: Quest): Promise<void>;
  update(id: string, change: RecordChange<Quest>): Promise<Quest | undefined>;
}

export interface ConfiguredEventStore {
  get(id: string): Promise<ConfiguredEvent | undefined>;
  /** Oldest first. */
  /** `prefix`: only patterns `<prefix>:…` (the scheduler asks for `schedule`). */
  list(filter?: {
    type?: string;
    prefix?: string;
    agent_id?: string;
    session_id?: string;
    quest_id?: string;
  }): Promise<ConfiguredEvent[]>;
  create(cfg: ConfiguredEvent): Promise<void>;
  update(id: string, change: RecordChange<ConfiguredEvent>): Promise<ConfiguredEvent | undefined>;
  /** False when there was no such configured event. */
  delete(id: string): Promise<boolean>;
}

/** What each event fired, kept for trace: one record per dispatch, found by the event's id. */
export interface FiringStore {
  /**
   * `notFired`: the configured events considered that did not fire, with why (trace). `retries`:
   * retries scheduled or settled by these firings, in the same atomic write.
   */
  add(eventId: string, fired: Firing[], notFired?: NotFired[], retries?: RetryChange): Promise<void>;
  /** Every firing of the event, in dispatch order. */
  of(eventId: string): Promise<Firing[]>;
  /** The configured events considered for the event that did not fire, in dispatch order. */
  notFiredOf(eventId: string): Promise<NotFired[]>;
}

/** A Company's settings of the bus, by name (`chain_budget`): small records, read on dispatch. */
export interface SettingsStore {
  get(name: string): Promise<unknown>;
  /** null removes the setting. */
  put(name: string, value: unknown): Promise<void>;
}

/** Webhook delivery ids seen lately, persisted so a replay right after a restart is still refused. */
export interface DeliveryStore {
  /** True the first time `key` is seen within the retention (and records it); false for a duplicate. */
  firstSeen(key: string, nowMs: number): Promise<boolean>;
  size(): Promise<number>;
}

/** Every store of one Company runtime, over one space: writes across them can be one atomic step. */
export interface RuntimeStores {
  agents: AgentStore;
  sessions: RuntimeSessionStore;
  transcripts: TranscriptStore;
  quests: QuestStore;
  configured: ConfiguredEventStore;
  firings: FiringStore;
  retries: RetryStore;
  ticks: TickStore;
  channels: ChannelStore;
  questions: QuestionStore;
  deliveries: DeliveryStore;
  idempotency: IdempotencyStore;
  /**
   * Team mode: windowed matchers, loop and idea detection counted in the database, so events of
   * one Company arriving through different daemons count toward the same window. Absent on the
   * JSON store: each daemon counts in memory (a restart forgets windows there).
   */
  windows?: WindowStore;
  /** Company settings of the bus (the chain budget), one small record each. */
  settings: SettingsStore;
  /** Tool calls that failed for good, for the failures list and replay. */
  failures: FailureStore;
  /**
   * Flow control (throttle, concurrency, debounce): decided in the database in team mode; on the
   * JSON store, pending debounces in the journal and the rest in memory (store/runtime/flow-journal.ts).
   */
  flow?: FlowStore;
  /** Resolves once every write so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

// --- schedules: the scheduler's tick cursors, one store per Company runtime ---

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
  get(id: string): Promise<Readonly<TickCursor> | undefined>;
  /**
   * Applies a walk's updates in one atomic, durable write and returns the ticks it claimed. A tick
   * is claimed here before it fires, so two walks (or a walk after a restart) never fire it twice.
   */
  commit(updates: TickUpdate[]): Promise<Array<{ id: string; tick: string }>>;
  /** Drops the cursors of deleted events. */
  forget(ids: string[]): Promise<void>;
  /** Ids with a cursor. */
  ids(): Promise<string[]>;
  /** Every cursor by id, in one read: a walk over 10 000 schedules makes one call, not 10 000. */
  cursors(): Promise<ReadonlyMap<string, Readonly<TickCursor>>>;
}

// --- questions: decision requests agents raise, one store per Company runtime ---

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
  /** Set on a question the chain budget asked: the correlation id of the chain it stopped. */
  chain?: string | null;
}

export type AnswerOutcome =
  | { ok: true; record: QuestionRecord }
  | { ok: false; reason: 'not_found' | 'already_answered' };

export interface QuestionStore {
  add(record: QuestionRecord): Promise<QuestionRecord>;
  get(id: string): Promise<QuestionRecord | undefined>;
  /** Oldest first. */
  list(filter?: { status?: 'open' | 'answered'; agent_id?: string; session_id?: string }): Promise<QuestionRecord[]>;
  /** Records the answer once, atomically: of two concurrent answers exactly one wins. */
  answer(id: string, answer: string, by: string, atIso: string): Promise<AnswerOutcome>;
}

// --- webhook channels: one store per Company runtime; secrets are sealed, never plain ---

/** One webhook channel; its secrets sealed (company/channels/channel-secrets.ts says why). */
export interface ChannelRecord {
  /** The `<channel>` of `webhook:<channel>` and of `POST /api/webhooks/{channel}`. */
  name: string;
  secret_sealed: string;
  previous_sealed: string | null;
  /** Until when the previous secret is still accepted. */
  previous_until: string | null;
  created_at: string;
  rotated_at: string | null;
}

export interface ChannelStore {
  get(name: string): Promise<ChannelRecord | undefined>;
  /** Oldest first. */
  list(): Promise<ChannelRecord[]>;
  /** Fails with StoreConflict('channel_exists') when the name is taken. */
  create(record: ChannelRecord): Promise<void>;
  /** Replaces a channel's record (a rotation); false when there is no such channel. */
  replace(record: ChannelRecord): Promise<boolean>;
  /** False when there is no such channel. */
  delete(name: string): Promise<boolean>;
}
