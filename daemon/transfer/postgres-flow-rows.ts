import { sqlText } from '../store/postgres/runtime/doc-table.js';
import { byPos, PAGE, type PgRuntimeTable } from './postgres-table-shape.js';

/**
 * The bus's Company settings (the chain budget, migration 110) as the record engine keeps them:
 * `{ id: name, value }`, one row per name. Names are the daemon's own words, stored as they are
 * (as store/postgres/runtime/index.ts does).
 */
export const settingsTable: PgRuntimeTable = {
  page: `SELECT name, doc FROM svc_rt_settings WHERE company_id = $1
         AND ($2::text IS NULL OR name COLLATE "C" > $2::text COLLATE "C") ORDER BY name COLLATE "C" LIMIT ${PAGE}`,
  cursorOf: (row) => row.name,
  toRecord: (row) => ({ id: row.name, value: row.doc }),
  insert: (client, company, r) =>
    client.query('INSERT INTO svc_rt_settings (company_id, name, doc) VALUES ($1, $2, $3)', [
      company,
      String(r.id),
      JSON.stringify(r.value),
    ]),
};

/** Failures kept for replay (migration 111), oldest first: the record is the row's document. */
export const failuresTable: PgRuntimeTable = {
  page: byPos('doc', 'svc_rt_failures'),
  cursorOf: (row) => row.pos,
  toRecord: (row) => row.doc as Record<string, unknown>,
  insert: (client, company, r) =>
    client.query(
      'INSERT INTO svc_rt_failures (company_id, id, configured_event_id, replayed_at, doc) VALUES ($1, $2, $3, $4, $5)',
      [
        company,
        sqlText(String(r.id)),
        sqlText(String(r.configured_event_id)),
        typeof r.replayed_at === 'string' ? r.replayed_at : null,
        JSON.stringify(r),
      ],
    ),
};
