import type pg from 'pg';
import type { Clock } from '../../clock.js';
import { formatEventId, parseEventId } from '../event-log/event-id.js';
import type { EventLog } from '../event-log/types.js';
import { EventBatcher } from './event-batch.js';
import type { EventNotifier, HeadListener } from './event-notifier.js';
import { buildEventQuery, pageOf } from './event-query.js';
import { EVENT_COLUMNS, prepareEvent, rowFromStored, type StoredEvent } from './event-rows.js';

export interface PostgresEventLog extends EventLog {
  /**
   * Calls `listener` with the new head id whenever any daemon commits events to this Company's
   * log (this one included), and once with the current head when this daemon starts listening
   * (event-notifier.ts): page from the cursor on each call. Returns an unsubscribe.
   */
  subscribe(listener: HeadListener): () => void;
}

export interface PostgresEventLogOptions {
  pool: pg.Pool;
  notifier: EventNotifier;
  company: string;
  clock: Clock;
}

/**
 * One Company's log in `svc_events`. Ids keep the file log's format (`evt_` + 16 digits), numbered
 * per Company from 1 with no gaps, so ids, cursors and their ordering are the same on both stores.
 * An append is acknowledged once its transaction has committed.
 */
export function openPostgresEventLog(options: PostgresEventLogOptions): PostgresEventLog {
  const { pool, company, clock } = options;
  const batcher = new EventBatcher(pool, company);
  const unsubscribes = new Set<() => void>();
  let closed = false;
  return {
    async append(input) {
      if (closed) throw new Error('the event log is closed');
      return batcher.add(prepareEvent(input, clock));
    },
    async get(id) {
      const seq = parseEventId(id);
      if (seq === null) return undefined;
      const { rows } = await pool.query<StoredEvent>(
        `SELECT ${EVENT_COLUMNS} FROM svc_events WHERE company_id = $1 AND seq = $2`,
        [company, seq],
      );
      return rows[0] ? rowFromStored(rows[0], formatEventId) : undefined;
    },
    async query(query) {
      const sql = buildEventQuery(company, query);
      // A config object, not a text, is left unnamed by the pool (connect.ts): planned for its values.
      const { rows } = sql.planEachCall
        ? await pool.query<StoredEvent>({ text: sql.text, values: sql.values })
        : await pool.query<StoredEvent>(sql.text, sql.values);
      return pageOf(rows, sql.limit);
    },
    async lastId() {
      const { rows } = await pool.query<{ last_seq: string }>(
        'SELECT last_seq FROM svc_event_heads WHERE company_id = $1',
        [company],
      );
      return rows[0] ? formatEventId(Number(rows[0].last_seq)) : null;
    },
    subscribe(listener) {
      const unsubscribe = options.notifier.subscribe(company, listener);
      unsubscribes.add(unsubscribe);
      return () => {
        unsubscribes.delete(unsubscribe);
        unsubscribe();
      };
    },
    recovery: [],
    async close() {
      closed = true;
      // Appends already accepted finish: their callers are waiting for an answer.
      await batcher.idle();
      for (const unsubscribe of unsubscribes) unsubscribe();
      unsubscribes.clear();
    },
  };
}
