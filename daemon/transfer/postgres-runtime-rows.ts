import type pg from 'pg';
import { fromSqlText, putDoc, sqlText, type DocTable } from '../store/postgres/runtime/doc-table.js';
import * as t from '../store/postgres/runtime/tables.js';
import type { RuntimeTableName } from './archive-tables.js';

type Row = Record<string, unknown>;
type Rec = Record<string, unknown>;

/**
 * One runtime table of migration 100 seen as the record engine's table of the same name: how its
 * rows are read in order (a page at a time, after a cursor) and become archive records, and how a
 * record is written back. The record shapes are the JSON store's (daemon/store/runtime/tables.ts).
 */
export interface PgRuntimeTable {
  /** SELECT of one page: $1 the Company, $2 the cursor (null: from the start), LIMIT included. */
  page: string;
  cursorOf(row: Row): unknown;
  /** Firings number their records per event: `seen` counts them within the Company. */
  toRecord(row: Row, seen: Map<string, number>): Rec;
  insert(client: pg.PoolClient, company: string, record: Rec): Promise<unknown>;
  /** The same for many records in one statement, where a table grows with history (transcripts, firings). */
  insertMany?(client: pg.PoolClient, company: string, records: Rec[]): Promise<unknown>;
}

const PAGE = 1000;
const byPos = (columns: string, table: string) =>
  `SELECT pos, ${columns} FROM ${table} WHERE company_id = $1 AND ($2::bigint IS NULL OR pos > $2::bigint) ORDER BY pos LIMIT ${PAGE}`;

const docTable = <T>(table: DocTable<T>): PgRuntimeTable => ({
  page: byPos('doc', table.name),
  cursorOf: (row) => row.pos,
  toRecord: (row) => row.doc as Rec,
  insert: (client, company, record) => putDoc(client, table, company, record as T),
});

const notFiredOf = (r: Rec) =>
  Array.isArray(r.not_fired) && r.not_fired.length > 0 ? JSON.stringify(r.not_fired) : null;

export const PG_RUNTIME_TABLES: Record<RuntimeTableName, PgRuntimeTable> = {
  agents: docTable(t.agents),
  sessions: docTable(t.sessions),
  messages: {
    // No pos: ordered by (session, seq), the order a session's transcript is read in.
    page: `SELECT session_id, seq, entry FROM svc_rt_messages WHERE company_id = $1
           AND ($2::text[] IS NULL OR (session_id, seq) > (($2::text[])[1], ($2::text[])[2]::int))
           ORDER BY session_id, seq LIMIT ${PAGE}`,
    cursorOf: (row) => [row.session_id, String(row.seq)],
    toRecord: (row) => {
      const session_id = fromSqlText(row.session_id as string);
      const { at, from, text } = row.entry as Rec;
      return { id: `${session_id}:${row.seq}`, session_id, seq: row.seq, at, from, text };
    },
    insert: (client, company, r) =>
      client.query('INSERT INTO svc_rt_messages (company_id, session_id, seq, entry) VALUES ($1, $2, $3, $4)', [
        company,
        sqlText(String(r.session_id)),
        r.seq,
        JSON.stringify({ at: r.at, from: r.from, text: r.text }),
      ]),
    insertMany: (client, company, rs) =>
      client.query(
        `INSERT INTO svc_rt_messages (company_id, session_id, seq, entry)
         SELECT $1, * FROM unnest($2::text[], $3::int[], $4::json[])`,
        [
          company,
          rs.map((r) => sqlText(String(r.session_id))),
          rs.map((r) => r.seq),
          rs.map((r) => JSON.stringify({ at: r.at, from: r.from, text: r.text })),
        ],
      ),
  },
  quests: docTable(t.quests),
  configured_events: docTable(t.configured),
  firings: {
    page: byPos('event_id, fired, not_fired', 'svc_rt_firings'),
    cursorOf: (row) => row.pos,
    toRecord: (row, seen) => {
      const event_id = fromSqlText(row.event_id as string);
      const n = seen.get(event_id) ?? 0;
      seen.set(event_id, n + 1);
      return {
        id: `${event_id}:${n}`,
        event_id,
        fired: row.fired,
        ...(row.not_fired ? { not_fired: row.not_fired } : {}),
      };
    },
    insert: (client, company, r) =>
      client.query('INSERT INTO svc_rt_firings (company_id, event_id, fired, not_fired) VALUES ($1, $2, $3, $4)', [
        company,
        sqlText(String(r.event_id)),
        JSON.stringify(r.fired ?? []),
        notFiredOf(r),
      ]),
    // ORDER BY the array position: `pos` is handed out in insert order, and it is the firings' order.
    insertMany: (client, company, rs) =>
      client.query(
        `INSERT INTO svc_rt_firings (company_id, event_id, fired, not_fired)
         SELECT $1, event_id, fired, not_fired FROM unnest($2::text[], $3::json[], $4::json[])
           WITH ORDINALITY AS u(event_id, fired, not_fired, n) ORDER BY n`,
        [
          company,
          rs.map((r) => sqlText(String(r.event_id))),
          rs.map((r) => JSON.stringify(r.fired ?? [])),
          rs.map(notFiredOf),
        ],
      ),
  },
  schedule_ticks: {
    page: `SELECT id, last_tick, active, baseline FROM svc_rt_tick_cursors WHERE company_id = $1
           AND ($2::text IS NULL OR id COLLATE "C" > $2::text COLLATE "C") ORDER BY id COLLATE "C" LIMIT ${PAGE}`,
    cursorOf: (row) => row.id,
    toRecord: (row) => ({
      id: fromSqlText(row.id as string),
      last_tick: row.last_tick,
      active: row.active,
      baseline: row.baseline,
    }),
    insert: (client, company, r) =>
      client.query(
        'INSERT INTO svc_rt_tick_cursors (company_id, id, last_tick, active, baseline) VALUES ($1, $2, $3, $4, $5)',
        [company, sqlText(String(r.id)), r.last_tick ?? null, r.active === true, r.baseline],
      ),
  },
  channels: docTable(t.channels),
  questions: docTable(t.questions),
  webhook_deliveries: {
    page: byPos('key, at_ms', 'svc_rt_deliveries'),
    cursorOf: (row) => row.pos,
    toRecord: (row) => ({ id: (row.key as Buffer).toString('utf8'), at_ms: Number(row.at_ms) }),
    insert: (client, company, r) =>
      client.query('INSERT INTO svc_rt_deliveries (company_id, key, at_ms) VALUES ($1, $2, $3)', [
        company,
        Buffer.from(String(r.id), 'utf8'),
        r.at_ms,
      ]),
  },
  idempotency_keys: {
    page: byPos('key, at_ms, doc', 'svc_rt_idempotency'),
    cursorOf: (row) => row.pos,
    toRecord: (row) => {
      const doc = row.doc as Rec;
      return {
        id: (row.key as Buffer).toString('utf8'),
        at_ms: Number(row.at_ms),
        fingerprint: doc.fingerprint,
        answer: doc.answer,
      };
    },
    insert: (client, company, r) =>
      client.query('INSERT INTO svc_rt_idempotency (company_id, key, at_ms, doc) VALUES ($1, $2, $3, $4)', [
        company,
        Buffer.from(String(r.id), 'utf8'),
        r.at_ms,
        JSON.stringify({ fingerprint: r.fingerprint, answer: r.answer }),
      ]),
  },
};

/** Every row of one runtime table of one Company, oldest first, as archive records. */
export async function* readPgRuntimeTable(
  client: pg.PoolClient,
  table: PgRuntimeTable,
  company: string,
): AsyncGenerator<Rec> {
  const seen = new Map<string, number>();
  let cursor: unknown = null;
  for (;;) {
    const { rows } = await client.query<Row>(table.page, [company, cursor]);
    for (const row of rows) yield table.toRecord(row, seen);
    if (rows.length < PAGE) return;
    cursor = table.cursorOf(rows[rows.length - 1]!);
  }
}
