import type { EventFilter, EventRow } from '../../../shared/runtime-records.js';

/**
 * One Company's event log (spec §2.1, kept forever). The JSON Lines implementation (segment files,
 * group commit, in-memory indexes rebuilt at start) and the in-memory one pass the same suite.
 * Reads are async like writes, so a database can implement the log behind the same seam.
 */
export type NewEventRow = Omit<EventRow, 'id' | 'created_at' | 'correlation_id' | 'source'> & {
  correlation_id?: string | null;
  source?: EventRow['source'];
};

export interface LogQuery extends EventFilter {
  /** Only events whose type starts with `<prefix>:`. */
  prefix?: string;
  correlation_id?: string;
  causation_id?: string;
}

export interface EventLog {
  /**
   * Appends one event and resolves once the batch holding it is on disk. Ids sort in append order
   * (so `since_id` pages are exact); `correlation_id` defaults to the event's own id (a root cause).
   */
  append(input: NewEventRow): Promise<EventRow>;
  get(id: string): Promise<EventRow | undefined>;
  /** Oldest first, at most `limit` (default 100, max 1000); `next_since_id` null when nothing follows. */
  query(query: LogQuery): Promise<{ events: EventRow[]; next_since_id: string | null }>;
  /** The id of the newest event, or null when empty (a live follower's starting cursor). */
  lastId(): Promise<string | null>;
  /** Problems met while opening (a corrupt line skipped, a torn tail cut), for the daemon log. */
  readonly recovery: string[];
  /** Counters for the daemon log and the benchmark (the file log has them; optional for others). */
  stats?(): EventLogStats;
  close(): Promise<void>;
}

export interface EventLogStats {
  /** Events visible (durable). */
  events: number;
  /** Batches written since open: each is one write and one sync, however many appends joined it. */
  batches: number;
  syncs: number;
  /** Approximate bytes held by the in-memory indexes and line locations. */
  index_bytes: number;
}
