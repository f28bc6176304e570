import type pg from 'pg';
import type { Clock } from '../../clock.js';

/**
 * SECURITY.md's per-account failure ceiling (10 consecutive failures per factor → 15 min lock-out)
 * counted in PostgreSQL, so failures spread over several daemons add up: 10 wrong passwords, 5 on
 * each of two daemons, lock the account. Same rules as daemon/http/rate-limit.ts's in-memory one.
 */
export interface SharedFailureCeiling {
  lockedFor(key: string): Promise<number | null>;
  /** Counts a failure; returns the consecutive count (the `max`-th starts, a later one extends, the lock-out). */
  fail(key: string): Promise<number>;
  succeed(key: string): Promise<void>;
  /** Forgets finished lock-outs and keys idle for a day; returns how many rows went. */
  sweep(): Promise<number>;
}

const FORGET_FAILURES_MS = 24 * 3600_000;

export function createSharedFailureCeiling(pool: pg.Pool, clock: Clock, max: number, lockMs: number): SharedFailureCeiling {
  return {
    async lockedFor(key) {
      const now = clock.now();
      const { rows } = await pool.query<{ locked_until: string }>('SELECT locked_until FROM svc_failures WHERE key = $1', [key]);
      const until = Number(rows[0]?.locked_until ?? 0);
      return until > now ? Math.ceil((until - now) / 1000) : null;
    },
    async fail(key) {
      // One atomic upsert: of any number of concurrent failures, each sees the count before it.
      // A lock-out that is over starts the count again from one.
      const { rows } = await pool.query<{ failures: number }>(
        `INSERT INTO svc_failures AS f (key, failures, locked_until, last_at)
         VALUES ($1, 1, CASE WHEN 1 >= $3::int THEN $2::bigint + $4::bigint ELSE 0 END, $2::bigint)
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN f.locked_until > 0 AND f.locked_until <= $2::bigint THEN 1 ELSE f.failures + 1 END,
           locked_until = CASE
             WHEN (CASE WHEN f.locked_until > 0 AND f.locked_until <= $2::bigint THEN 1 ELSE f.failures + 1 END) >= $3::int THEN $2::bigint + $4::bigint
             WHEN f.locked_until > 0 AND f.locked_until <= $2::bigint THEN 0
             ELSE f.locked_until END,
           last_at = $2::bigint
         RETURNING failures`,
        [key, clock.now(), max, lockMs],
      );
      return rows[0]!.failures;
    },
    async succeed(key) {
      await pool.query('DELETE FROM svc_failures WHERE key = $1', [key]);
    },
    async sweep() {
      const now = clock.now();
      const { rowCount } = await pool.query(
        'DELETE FROM svc_failures WHERE (locked_until > 0 AND locked_until <= $1::bigint) OR (locked_until = 0 AND last_at <= $1::bigint - $2::bigint)',
        [now, FORGET_FAILURES_MS],
      );
      return rowCount ?? 0;
    },
  };
}
