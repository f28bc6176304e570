import type pg from 'pg';
import { formatEventId, parseEventId } from '../store/event-log/event-id.js';
import { EVENT_SOURCES, type EventRow } from '../../shared/runtime-records.js';
import { EVENT_COLUMNS, rowFromStored, type StoredEvent } from '../store/postgres/event-rows.js';

const PAGE = 1000;

/** One Company's events in id order, as the log's rows (ids as the file log writes them). */
export async function* readPgEvents(client: pg.PoolClient, company: string): AsyncGenerator<EventRow> {
  let after = 0;
  for (;;) {
    const { rows } = await client.query<StoredEvent>(
      `SELECT ${EVENT_COLUMNS} FROM svc_events WHERE company_id = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
      [company, after],
    );
    for (const r of rows) yield rowFromStored(r, formatEventId);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

const INSERT_BATCH = `
INSERT INTO svc_events (company_id, seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content, source, origin)
SELECT $1::text, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::json[], $11::text[], $12::json[])`;

/**
 * Writes events with their ids (the sequence numbers the ids carry), 500 to a statement, then
 * `finish` sets the Company's head to the last one, so the next append continues above it exactly
 * as the file log does.
 */
export function createPgEventLoader(client: pg.PoolClient, company: string) {
  let last = 0;
  let batch: Array<{ seq: number; row: EventRow }> = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    const col = (f: (e: { seq: number; row: EventRow }) => unknown) => rows.map(f);
    await client.query(INSERT_BATCH, [
      company,
      col((e) => e.seq),
      col((e) => e.row.type),
      col((e) => e.row.agent_id ?? null),
      col((e) => e.row.session_id ?? null),
      col((e) => e.row.quest_id ?? null),
      col((e) => e.row.causation_id ?? null),
      col((e) => e.row.correlation_id ?? e.row.id),
      col((e) => e.row.created_at),
      col((e) => JSON.stringify(e.row.content ?? null)),
      // An archive's unknown source is stored as null: a read infers it, as for rows older than the column.
      col((e) => (EVENT_SOURCES.includes(e.row.source) ? e.row.source : null)),
      col((e) => (e.row.origin ? JSON.stringify(e.row.origin) : null)),
    ]);
  };
  return {
    async add(row: EventRow): Promise<void> {
      const seq = parseEventId(row.id);
      if (seq === null || seq <= last) throw new Error(`event id ${String(row.id)} is malformed or out of order`);
      last = seq;
      batch.push({ seq, row });
      if (batch.length >= 500) await flush();
    },
    async finish(): Promise<void> {
      await flush();
      if (last > 0)
        await client.query('INSERT INTO svc_event_heads (company_id, last_seq) VALUES ($1, $2)', [company, last]);
    },
  };
}
