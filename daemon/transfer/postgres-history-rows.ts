import { fromSqlText, sqlText } from '../store/postgres/runtime/doc-table.js';
import { applyRetryChange } from '../store/postgres/runtime/retries.js';
import type { PendingRetry } from '../store/runtime-types.js';
import { byPos, PAGE, type PgRuntimeTable, type Rec } from './postgres-table-shape.js';

/** The runtime tables that follow events: transcripts and firings (read in pages, written 500 rows to a statement), retries. */
const notFiredOf = (r: Rec) =>
  Array.isArray(r.not_fired) && r.not_fired.length > 0 ? JSON.stringify(r.not_fired) : null;

export const messagesTable: PgRuntimeTable = {
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
};

export const firingsTable: PgRuntimeTable = {
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
};

/** Pending retries (no `pos`: few at a time, read in id order; written as the retry store writes them). */
export const retriesTable: PgRuntimeTable = {
  page: `SELECT id, state, lease_until_ms, doc FROM svc_rt_retries WHERE company_id = $1
         AND ($2::text IS NULL OR id COLLATE "C" > $2::text COLLATE "C") ORDER BY id COLLATE "C" LIMIT ${PAGE}`,
  cursorOf: (row) => row.id,
  toRecord: (row) => ({
    ...(row.doc as Rec),
    state: row.state,
    lease_until_ms: row.lease_until_ms === null ? null : Number(row.lease_until_ms),
  }),
  insert: (client, company, r) => applyRetryChange(client, company, { put: [r as unknown as PendingRetry] }),
};
