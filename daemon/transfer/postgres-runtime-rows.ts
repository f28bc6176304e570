import { fromSqlText, putDoc, sqlText, type DocTable } from '../store/postgres/runtime/doc-table.js';
import * as t from '../store/postgres/runtime/tables.js';
import type { RuntimeTableName } from './archive-tables.js';
import { firingsTable, messagesTable, retriesTable } from './postgres-history-rows.js';
import { byPos, PAGE, type PgRuntimeTable, type Rec } from './postgres-table-shape.js';
import { failuresTable, settingsTable } from './postgres-flow-rows.js';

const docTable = <T>(table: DocTable<T>): PgRuntimeTable => ({
  page: byPos('doc', table.name),
  cursorOf: (row) => row.pos,
  toRecord: (row) => row.doc as Rec,
  insert: (client, company, record) => putDoc(client, table, company, record as T),
});

/** Every runtime table of migration 100 (and the bus's settings and failures, 110 and 111), by its name in an archive (the record engine's name). */
export const PG_RUNTIME_TABLES: Record<RuntimeTableName, PgRuntimeTable> = {
  agents: docTable(t.agents),
  sessions: docTable(t.sessions),
  messages: messagesTable,
  quests: docTable(t.quests),
  configured_events: docTable(t.configured),
  firings: firingsTable,
  retries: retriesTable,
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
    // Finished answers only: a key taken by a request still running has none to move.
    page: `SELECT pos, key, at_ms, doc FROM svc_rt_idempotency WHERE company_id = $1 AND claim IS NULL
             AND ($2::bigint IS NULL OR pos > $2::bigint) ORDER BY pos LIMIT ${PAGE}`,
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
  settings: settingsTable,
  failures: failuresTable,
};
