import type pg from 'pg';
import { withTransaction } from '../connect.js';
import type { IdempotencyStore, RememberedAnswer } from '../../runtime-types.js';

/**
 * Answers of idempotent requests, kept for `windowMs` (24 h, CONTRACT §8) and at most `maxKeys`,
 * oldest forgotten first, as on the record engine. The key is bytea (scope and key joined by a
 * NUL). Remembering is an upsert that also moves the key to the end (a fresh `pos`), so two daemons
 * remembering one key at once both succeed and the later answer stays.
 */
export function createIdempotencyStore(
  pool: pg.Pool,
  company: string,
  options: { windowMs?: number; maxKeys?: number } = {},
): IdempotencyStore {
  const windowMs = options.windowMs ?? 24 * 3600_000;
  const maxKeys = options.maxKeys ?? 100_000;
  return {
    windowMs,
    get: async (key, nowMs) => {
      const { rows } = await pool.query<{ doc: RememberedAnswer }>(
        'SELECT doc FROM svc_rt_idempotency WHERE company_id = $1 AND key = $2 AND at_ms > $3',
        [company, Buffer.from(key, 'utf8'), nowMs - windowMs],
      );
      const doc = rows[0]?.doc;
      return doc && { fingerprint: doc.fingerprint, answer: doc.answer };
    },
    remember: (key, remembered, nowMs) =>
      withTransaction(pool, async (client) => {
        await client.query('DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND at_ms <= $2', [
          company,
          nowMs - windowMs,
        ]);
        await client.query(
          `DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND pos IN (
             SELECT pos FROM svc_rt_idempotency WHERE company_id = $1 ORDER BY pos
             LIMIT greatest((SELECT count(*) FROM svc_rt_idempotency WHERE company_id = $1) - $2 + 1, 0))`,
          [company, maxKeys],
        );
        await client.query(
          `INSERT INTO svc_rt_idempotency (company_id, key, at_ms, doc) VALUES ($1, $2, $3, $4)
           ON CONFLICT (company_id, key) DO UPDATE SET at_ms = EXCLUDED.at_ms, doc = EXCLUDED.doc, pos = DEFAULT`,
          [
            company,
            Buffer.from(key, 'utf8'),
            nowMs,
            JSON.stringify({ fingerprint: remembered.fingerprint, answer: remembered.answer }),
          ],
        );
      }),
  };
}
