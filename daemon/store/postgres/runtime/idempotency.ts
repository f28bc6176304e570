import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { withTransaction } from '../connect.js';
import type { IdempotencyClaim, IdempotencyStore, RememberedAnswer } from '../../runtime-types.js';

/** How long a claim holds a key without an answer before another daemon may take it over. */
export const CLAIM_MS = 120_000;

/**
 * Takes a key in one statement: a new row, or one whose answer is past the window, or one whose
 * claim ran out. Otherwise nothing changes and the row is read for the caller. (The outer select
 * reads the statement's snapshot: a row another daemon committed while this statement waited on
 * it may not be seen, which the caller treats as held, and asks again.)
 */
const CLAIM = `
WITH taken AS (
  INSERT INTO svc_rt_idempotency (company_id, key, at_ms, doc, claim, claim_until)
  VALUES ($1, $2, $3, $4, $5, $3::bigint + $6::bigint)
  ON CONFLICT (company_id, key) DO UPDATE
    SET at_ms = EXCLUDED.at_ms, doc = EXCLUDED.doc, claim = EXCLUDED.claim, claim_until = EXCLUDED.claim_until, pos = DEFAULT
    WHERE svc_rt_idempotency.at_ms <= $3::bigint - $7::bigint OR svc_rt_idempotency.claim_until < $3::bigint
  RETURNING 1
)
SELECT t.taken, r.doc, r.claim IS NOT NULL AS held
FROM (SELECT EXISTS (SELECT 1 FROM taken) AS taken) t
LEFT JOIN svc_rt_idempotency r ON r.company_id = $1 AND r.key = $2`;

/**
 * Answers of idempotent requests, kept for `windowMs` (24 h, CONTRACT §8) and at most `maxKeys`,
 * oldest forgotten first, as on the record engine. The key is bytea (scope and key joined by a
 * NUL). A request takes its key first (`claim`, migration 106), so of two repeats on two daemons
 * one runs and the other waits for its answer; remembering is an upsert that ends the claim and
 * moves the key to the end (a fresh `pos`).
 */
export function createIdempotencyStore(
  pool: pg.Pool,
  company: string,
  options: { windowMs?: number; maxKeys?: number } = {},
): IdempotencyStore {
  const windowMs = options.windowMs ?? 24 * 3600_000;
  const maxKeys = options.maxKeys ?? 100_000;
  const keyOf = (key: string) => Buffer.from(key, 'utf8');
  return {
    windowMs,
    get: async (key, nowMs) => {
      const { rows } = await pool.query<{ doc: RememberedAnswer }>(
        'SELECT doc FROM svc_rt_idempotency WHERE company_id = $1 AND key = $2 AND at_ms > $3 AND claim IS NULL',
        [company, keyOf(key), nowMs - windowMs],
      );
      const doc = rows[0]?.doc;
      return doc && { fingerprint: doc.fingerprint, answer: doc.answer };
    },
    async claim(key, fingerprint, nowMs): Promise<IdempotencyClaim> {
      const token = randomUUID();
      const { rows } = await pool.query<{ taken: boolean; doc: RememberedAnswer | null; held: boolean | null }>(CLAIM, [
        company,
        keyOf(key),
        nowMs,
        JSON.stringify({ fingerprint }),
        token,
        CLAIM_MS,
        windowMs,
      ]);
      const { taken, doc, held } = rows[0]!;
      if (taken) return { token };
      if (!doc) return { heldFor: null };
      return held ? { heldFor: doc.fingerprint } : { remembered: { fingerprint: doc.fingerprint, answer: doc.answer } };
    },
    async release(key, token) {
      // Only this run's own claim: one that ran out may have been taken over meanwhile.
      await pool.query('DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND key = $2 AND claim = $3', [
        company,
        keyOf(key),
        token,
      ]);
    },
    remember: (key, remembered, nowMs) =>
      withTransaction(pool, async (client) => {
        // Answers past the window, and claims that ran out as long ago (no repeat came to take them over).
        await client.query(
          'DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND at_ms <= $2 AND (claim IS NULL OR claim_until < $3)',
          [company, nowMs - windowMs, nowMs],
        );
        await client.query(
          `DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND pos IN (
             SELECT pos FROM svc_rt_idempotency WHERE company_id = $1 AND claim IS NULL ORDER BY pos
             LIMIT greatest((SELECT count(*) FROM svc_rt_idempotency WHERE company_id = $1 AND claim IS NULL) - $2 + 1, 0))`,
          [company, maxKeys],
        );
        await client.query(
          `INSERT INTO svc_rt_idempotency (company_id, key, at_ms, doc) VALUES ($1, $2, $3, $4)
           ON CONFLICT (company_id, key) DO UPDATE
             SET at_ms = EXCLUDED.at_ms, doc = EXCLUDED.doc, claim = NULL, claim_until = NULL, pos = DEFAULT`,
          [
            company,
            keyOf(key),
            nowMs,
            JSON.stringify({ fingerprint: remembered.fingerprint, answer: remembered.answer }),
          ],
        );
      }),
  };
}
