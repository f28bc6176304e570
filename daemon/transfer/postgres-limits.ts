import type pg from 'pg';
import type { FailureRecord, RateBucketRecord } from '../store/limit-types.js';

const DAY = 24 * 3600_000;
export const RATE_BUCKETS = 'accounts.rate_buckets';
export const FAILURES = 'accounts.failures';

/**
 * The throttles' state between the two stores: the accounts journal's `rate_buckets` and
 * `failures` tables hold what `svc_rate_hits` and `svc_failures` hold in PostgreSQL. Carried so
 * that a lock-out running when the data moved still runs after (10 wrong passwords stay 10).
 */
export async function* readPgLimits(client: pg.PoolClient): AsyncGenerator<{ table: string; record: object }> {
  const hits = await client.query<{ key: string; hits: string[]; expires_at: string }>(
    'SELECT key, hits, expires_at FROM svc_rate_hits ORDER BY key',
  );
  for (const r of hits.rows) {
    const record: RateBucketRecord = { id: r.key, t: r.hits.map(Number), exp: Number(r.expires_at) };
    yield { table: RATE_BUCKETS, record };
  }
  const failures = await client.query<{ key: string; failures: number; locked_until: string; last_at: string }>(
    'SELECT key, failures, locked_until, last_at FROM svc_failures ORDER BY key',
  );
  for (const r of failures.rows) {
    const lock = Number(r.locked_until);
    // The journal's row is forgotten when its lock-out ends, or a day after the last failure.
    const record: FailureRecord = { id: r.key, n: r.failures, lock, exp: lock > 0 ? lock : Number(r.last_at) + DAY };
    yield { table: FAILURES, record };
  }
}

export async function insertPgLimit(
  client: pg.PoolClient,
  table: string,
  record: Record<string, unknown>,
): Promise<void> {
  if (table === RATE_BUCKETS) {
    const r = record as unknown as RateBucketRecord;
    await client.query('INSERT INTO svc_rate_hits (key, hits, expires_at) VALUES ($1, $2::bigint[], $3)', [
      r.id,
      r.t,
      r.exp,
    ]);
    return;
  }
  const r = record as unknown as FailureRecord;
  // last_at only matters without a lock-out: then the row's expiry is a day after it.
  await client.query('INSERT INTO svc_failures (key, failures, locked_until, last_at) VALUES ($1, $2, $3, $4)', [
    r.id,
    r.n,
    r.lock,
    r.lock > 0 ? r.lock : r.exp - DAY,
  ]);
}
