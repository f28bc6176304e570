import type pg from 'pg';
import type { FailureRecord, FailureStore } from '../../failure-types.js';
import { sqlText } from './doc-table.js';

/** One Company's failures kept for replay on PostgreSQL (migration 111). */
export function createPostgresFailureStore(pool: pg.Pool, company: string): FailureStore {
  const docs = (rows: Array<{ doc: FailureRecord }>) => rows.map((r) => r.doc);
  return {
    async add(record) {
      await pool.query(
        `INSERT INTO svc_rt_failures (company_id, id, configured_event_id, replayed_at, doc) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (company_id, id) DO UPDATE SET replayed_at = EXCLUDED.replayed_at, doc = EXCLUDED.doc`,
        [company, sqlText(record.id), sqlText(record.configured_event_id), record.replayed_at, JSON.stringify(record)],
      );
    },
    async get(id) {
      const { rows } = await pool.query<{ doc: FailureRecord }>(
        'SELECT doc FROM svc_rt_failures WHERE company_id = $1 AND id = $2',
        [company, sqlText(id)],
      );
      return rows[0]?.doc;
    },
    async list(filter = {}) {
      const { rows } = filter.configured_event_id
        ? await pool.query<{ doc: FailureRecord }>(
            'SELECT doc FROM svc_rt_failures WHERE company_id = $1 AND configured_event_id = $2 ORDER BY pos',
            [company, sqlText(filter.configured_event_id)],
          )
        : await pool.query<{ doc: FailureRecord }>(
            'SELECT doc FROM svc_rt_failures WHERE company_id = $1 ORDER BY pos',
            [company],
          );
      return docs(rows);
    },
    async claimReplay(id, atIso) {
      const { rows } = await pool.query<{ doc: FailureRecord }>(
        `UPDATE svc_rt_failures SET replayed_at = $3,
           doc = (doc::jsonb || jsonb_build_object('replayed_at', $3::text))::json
         WHERE company_id = $1 AND id = $2 AND replayed_at IS NULL RETURNING doc`,
        [company, sqlText(id), atIso],
      );
      return rows[0]?.doc;
    },
    async setReplayEvent(id, eventId) {
      await pool.query(
        `UPDATE svc_rt_failures SET doc = (doc::jsonb || jsonb_build_object('replay_event_id', $3::text))::json
         WHERE company_id = $1 AND id = $2`,
        [company, sqlText(id), eventId],
      );
    },
  };
}
