import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { createCappedRows } from './capped-rows.js';
import type { IdempotencyClaim, IdempotencyStore, RememberedAnswer } from '../../runtime-types.js';

/**
 * How long a claim holds a key without an answer before another daemon may take it over: a run is
 * an append and local tool calls (milliseconds), so this only matters when its daemon died.
 */
export const CLAIM_MS = 30_000;

/**
 * A claim's doc holds its request's fingerprint behind this prefix, so a daemon older than
 * migration 106 (during a rolling upgrade), which reads every row as an answer, finds a fingerprint
 * that matches no request and answers 409 instead of replaying an answer that does not exist.
 */
const HELD = 'held:';

/**
 * Takes a key in one statement: a new row, or one whose answer is past the window, or one whose
 * claim ran out. Otherwise nothing changes and the row is read for the caller. The outer select
 * reads the statement's snapshot, which may not show what another daemon committed while this
 * statement waited on the row: a row inserted meanwhile is missing, and a row taken over meanwhile
 * still shows its old state (an answer past the window, a claim that ran out). Neither is
 * reported (the join only shows rows the takeover would not match), so the caller asks again.
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
LEFT JOIN svc_rt_idempotency r ON r.company_id = $1 AND r.key = $2
  AND r.at_ms > $3::bigint - $7::bigint AND (r.claim_until IS NULL OR r.claim_until >= $3::bigint)`;

/**
 * Remembers an answer in one statement (one round trip, its own transaction): the upsert ends this
 * key's claim and moves the key to the end (a fresh `pos`). With a token ($6) it only ends that
 * claim: a run whose claim ran out and was taken over by another daemon (which is running the
 * request again, or has answered it) leaves the row alone, so a late answer never overwrites a
 * newer claim or answer (without a token, as a store without claims remembers, it always writes).
 * Beside it, up to 100 answers past the
 * window go, and claims that ran out as long ago (no repeat came to take them over), the oldest
 * first on the time index. The key itself is left to the upsert: one statement must not both
 * delete and update a row. Bounded, a write's sweep is bounded work, and the generic plan a named
 * statement keeps looks as cheap as one made for the values (an unbounded sweep's looked costlier
 * at scale, so the statement was planned anew on every call).
 */
const REMEMBER = `
WITH expired AS (
  DELETE FROM svc_rt_idempotency WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM svc_rt_idempotency
    WHERE company_id = $1 AND at_ms <= $3::bigint - $5::bigint AND key <> $2
      AND (claim IS NULL OR claim_until < $3::bigint)
    ORDER BY at_ms LIMIT 100))
)
INSERT INTO svc_rt_idempotency (company_id, key, at_ms, doc) VALUES ($1, $2, $3, $4)
ON CONFLICT (company_id, key) DO UPDATE
  SET at_ms = EXCLUDED.at_ms, doc = EXCLUDED.doc, claim = NULL, claim_until = NULL, pos = DEFAULT
  WHERE $6::text IS NULL OR svc_rt_idempotency.claim = $6::text`;

/**
 * Answers of idempotent requests, kept for `windowMs` (24 h, CONTRACT §8) and about `maxKeys`,
 * oldest forgotten first (capped-rows.ts). The key is bytea (scope and key joined by a NUL). A
 * request takes its key first (`claim`, migration 106), so of two repeats on two daemons one runs
 * and the other waits for its answer; `remember` then stores the answer in place of the claim.
 */
export function createIdempotencyStore(
  pool: pg.Pool,
  company: string,
  options: { windowMs?: number; maxKeys?: number } = {},
): IdempotencyStore {
  const windowMs = options.windowMs ?? 24 * 3600_000;
  const maxKeys = options.maxKeys ?? 100_000;
  const keyOf = (key: string) => Buffer.from(key, 'utf8');
  // Running claims are never trimmed: their requests are still waiting for an answer.
  const capped = createCappedRows(pool, {
    table: 'svc_rt_idempotency',
    company,
    max: maxKeys,
    keep: 'claim IS NOT NULL',
  });
  const get: IdempotencyStore['get'] = async (key, nowMs) => {
    const { rows } = await pool.query<{ doc: RememberedAnswer }>(
      'SELECT doc FROM svc_rt_idempotency WHERE company_id = $1 AND key = $2 AND at_ms > $3 AND claim IS NULL',
      [company, keyOf(key), nowMs - windowMs],
    );
    const doc = rows[0]?.doc;
    return doc && { fingerprint: doc.fingerprint, answer: doc.answer };
  };
  return {
    windowMs,
    get,
    async claim(key, fingerprint, nowMs): Promise<IdempotencyClaim> {
      // One statement whatever the key's state: a first try (what most keyed requests are) takes
      // it in one round trip, and a repeat of an answered key finds the answer in the same one
      // (the upsert's condition does not match, so nothing is written but the row's brief lock).
      const token = randomUUID();
      const doc = JSON.stringify({ fingerprint: HELD + fingerprint });
      const { rows } = await pool.query<{ taken: boolean; doc: RememberedAnswer | null; held: boolean | null }>(CLAIM, [
        company,
        keyOf(key),
        nowMs,
        doc,
        token,
        CLAIM_MS,
        windowMs,
      ]);
      const seen = rows[0]!;
      if (seen.taken) return { token, until: nowMs + CLAIM_MS };
      if (!seen.doc) return { heldFor: null };
      const { fingerprint: stored, answer } = seen.doc;
      return seen.held ? { heldFor: stored.slice(HELD.length) } : { remembered: { fingerprint: stored, answer } };
    },
    async release(key, token) {
      // Only this run's own claim: one that ran out may have been taken over meanwhile.
      await pool.query('DELETE FROM svc_rt_idempotency WHERE company_id = $1 AND key = $2 AND claim = $3', [
        company,
        keyOf(key),
        token,
      ]);
    },
    async remember(key, remembered, nowMs, token) {
      await pool.query(REMEMBER, [
        company,
        keyOf(key),
        nowMs,
        JSON.stringify({ fingerprint: remembered.fingerprint, answer: remembered.answer }),
        windowMs,
        token ?? null,
      ]);
      await capped.wrote();
    },
  };
}
