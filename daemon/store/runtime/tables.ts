import type { Space, Table } from '../engine/types.js';
import type {
  Agent,
  ConfiguredEvent,
  Firing,
  NotFired,
  Quest,
  TranscriptEntry,
} from '../../../shared/runtime-records.js';
import type {
  ChannelRecord,
  PendingRetry,
  QuestionRecord,
  RuntimeSessionRecord,
  TickCursor,
} from '../runtime-types.js';
import type { FailureRecord } from '../failure-types.js';
import type { PendingDebounce } from '../flow-types.js';
import { prefixOf } from '../../../shared/patterns.js';

/** One message of a transcript; `seq` counts from 0 within its session. */
export type MessageRecord = TranscriptEntry & { id: string; session_id: string; seq: number };
/** The firings of one dispatch of one event. */
export interface FiringRecord {
  id: string;
  event_id: string;
  fired: Firing[];
  /** Absent on records of older releases, which did not keep it, and when every configured event considered fired. */
  not_fired?: NotFired[];
}
export type TickRecord = TickCursor & { id: string };
/** A webhook delivery seen at `at_ms`; the id is `<channel key>\0<delivery id>`. */
export interface DeliveryRecord {
  id: string;
  at_ms: number;
}
/** Bookkeeping of the space itself (which legacy documents were imported). */
export interface MetaRecord {
  id: string;
  at: string;
  [k: string]: unknown;
}

/** One Company setting of the bus, by name. */
export interface SettingRecord {
  id: string;
  value: unknown;
}

export interface RuntimeTables {
  agents: Table<Agent>;
  sessions: Table<RuntimeSessionRecord>;
  messages: Table<MessageRecord>;
  quests: Table<Quest>;
  configured: Table<ConfiguredEvent>;
  firings: Table<FiringRecord>;
  retries: Table<PendingRetry>;
  ticks: Table<TickRecord>;
  channels: Table<ChannelRecord>;
  questions: Table<QuestionRecord>;
  deliveries: Table<DeliveryRecord>;
  meta: Table<MetaRecord>;
  settings: Table<SettingRecord>;
  failures: Table<FailureRecord>;
  debounces: Table<PendingDebounce>;
}

/**
 * The tables of a Company's runtime space. Names are stable on disk; every field a lookup uses has
 * an index, so no read or write scans a table that grows with the Company's history.
 */
export function defineRuntimeTables(space: Space): RuntimeTables {
  return {
    agents: space.define<Agent>({ name: 'agents', id: (a) => a.id, indexes: { role: (a) => a.role } }),
    sessions: space.define<RuntimeSessionRecord>({
      name: 'sessions',
      id: (s) => s.id,
      indexes: { agent: (s) => s.agent_id, status: (s) => s.status, channel: (s) => s.gateway_channel_id },
    }),
    messages: space.define<MessageRecord>({
      name: 'messages',
      id: (m) => m.id,
      indexes: { session: (m) => m.session_id },
    }),
    quests: space.define<Quest>({
      name: 'quests',
      id: (q) => q.id,
      indexes: { agent: (q) => q.agent_id, session: (q) => q.session_id, status: (q) => q.status },
    }),
    configured: space.define<ConfiguredEvent>({
      name: 'configured_events',
      id: (c) => c.id,
      indexes: {
        type: (c) => c.type,
        prefix: (c) => prefixOf(c.type),
        agent: (c) => c.agent_id,
        session: (c) => c.session_id,
        quest: (c) => c.quest_id,
      },
    }),
    firings: space.define<FiringRecord>({ name: 'firings', id: (f) => f.id, indexes: { event: (f) => f.event_id } }),
    retries: space.define<PendingRetry>({
      name: 'retries',
      id: (r) => r.id,
      indexes: { configured: (r) => r.configured_event_id, event: (r) => r.event_id },
    }),
    ticks: space.define<TickRecord>({ name: 'schedule_ticks', id: (t) => t.id }),
    channels: space.define<ChannelRecord>({ name: 'channels', id: (c) => c.name }),
    questions: space.define<QuestionRecord>({
      name: 'questions',
      id: (q) => q.id,
      indexes: { status: (q) => q.status, agent: (q) => q.agent_id, session: (q) => q.session_id },
    }),
    deliveries: space.define<DeliveryRecord>({ name: 'webhook_deliveries', id: (d) => d.id }),
    meta: space.define<MetaRecord>({ name: 'meta', id: (m) => m.id }),
    settings: space.define<SettingRecord>({ name: 'settings', id: (s) => s.id }),
    failures: space.define<FailureRecord>({
      name: 'failures',
      id: (f) => f.id,
      indexes: { configured: (f) => f.configured_event_id },
    }),
    debounces: space.define<PendingDebounce>({ name: 'debounces', id: (d) => d.key }),
  };
}

/**
 * The records a filter asks for, read through the first index whose field the filter sets (else the
 * whole table), then checked against every field. Lookups keep first-put order, so "oldest first" holds.
 */
export function selectBy<T extends object>(
  table: Table<T>,
  filter: Record<string, string | undefined>,
  indexOf: Record<string, string>,
): T[] {
  const set = Object.entries(filter).filter(([, v]) => v !== undefined) as Array<[string, string]>;
  // indexOf lists the indexes most selective first (a session before an agent before a status).
  const via = Object.keys(indexOf).find((field) => filter[field] !== undefined);
  const rows = via ? table.lookup(indexOf[via]!, filter[via]!) : [...table.all()];
  const field = (r: T, name: string) =>
    name === 'prefix' ? prefixOf(String((r as Record<string, unknown>).type)) : (r as Record<string, unknown>)[name];
  return rows.filter((r) => set.every(([name, v]) => field(r, name) === v));
}
