import type pg from 'pg';
import type { LimitStore } from '../limit-types.js';
import { withTransaction } from './connect.js';
import { waitForHit } from '../rate-window.js';

/** Failures older than this with no lock-out running are forgotten (as in the accounts store). */
const FORGET_FAILURES_MS = 24 * 3600_000;
/** Every this many hits, one bounded sweep of empty buckets (rows are keyed by unauthenticated callers). */
const SWEEP_EVERY = 64;

/**
 * One failure, in one statement ($1 key, $2 now, $3 ceiling, $4 lock-out, $5 forget after): an
 * atomic upsert, so of any number of concurrent failures (any daemon) each counts on the ones before
 * it. Then a bounded sweep of rows whose lock-out or day without failures is over, each half a
 * range scan on its own partial index (migration 3), however many accounts have failures.
 *
 * The sweep deletes the row versions it found (by `ctid`), not their keys: a row that another
 * daemon's failure has just updated is a new version, so it stays and keeps its fresh count. By
 * key, the new version would match again and go. It is also what lets the server keep one plan for
 * the statement: by key, the generic plan's guessed cost (a join of 40 rows) was always above a
 * plan made for the values, so the statement was planned anew on every failure (~0.2 ms).
 */
export const FAIL = `
WITH counted AS (
  INSERT INTO svc_failures AS f (key, failures, locked_until, last_at)
  VALUES ($1, 1, CASE WHEN 1 >= $3::int THEN $2::bigint + $4::bigint ELSE 0 END, $2::bigint)
  ON CONFLICT (key) DO UPDATE SET
    failures = (CASE WHEN f.locked_until > 0 AND f.locked_until <= $2::bigint THEN 0 ELSE f.failures END) + 1,
    locked_until = CASE
      WHEN (CASE WHEN f.locked_until > 0 AND f.locked_until <= $2::bigint THEN 0 ELSE f.failures END) + 1 >= $3::int
      THEN $2::bigint + $4::bigint ELSE 0 END,
    last_at = $2::bigint
  RETURNING key
)
DELETE FROM svc_failures WHERE ctid = ANY (ARRAY(
  (SELECT ctid FROM svc_failures WHERE locked_until > 0 AND locked_until <= $2::bigint AND key <> $1 LIMIT 20)
  UNION ALL
  (SELECT ctid FROM svc_failures WHERE locked_until = 0 AND last_at <= $2::bigint - $5::bigint AND key <> $1 LIMIT 20)))`;

/**
 * The throttles' state (LimitStore) in PostgreSQL, so every daemon counts into the same buckets and
 * ceilings: 5 signups an hour means 5 across the deployment, and 10 wrong passwords spread over two
 * daemons lock the account. Times are the daemons' clocks (`nowMs`), as on the JSON store; keep
 * them in step (NTP), or a window is off by their difference.
 */
export function createPostgresLimitStore(pool: pg.Pool): LimitStore {
  let hits = 0;
  const failuresOf = (row: { failures: number; locked_until: string } | undefined, nowMs: number) => {
    const lock = Number(row?.locked_until ?? 0);
    // A lock-out that is over starts the count again from zero.
    return !row || (lock > 0 && lock <= nowMs) ? 0 : row.failures;
  };
  return {
    async hit(key, rules, nowMs) {
      if (++hits % SWEEP_EVERY === 0) {
        await pool.query(
          'DELETE FROM svc_rate_hits WHERE key IN (SELECT key FROM svc_rate_hits WHERE expires_at <= $1 LIMIT 100)',
          [nowMs],
        );
      }
      const longest = Math.max(...rules.map((r) => r.windowMs));
      return withTransaction(pool, async (client) => {
        // The upsert creates the bucket or takes its row lock: concurrent hits on one key, from any
        // daemon, decide one after the other, each seeing the attempts counted before it.
        const { rows } = await client.query<{ hits: string[] }>(
          `INSERT INTO svc_rate_hits (key, hits, expires_at) VALUES ($1, '{}', 0)
           ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key RETURNING hits`,
          [key],
        );
        const times = rows[0]!.hits.map(Number).filter((at) => at > nowMs - longest);
        const waitMs = waitForHit(times, rules, nowMs);
        if (waitMs > 0) return waitMs;
        times.push(nowMs);
        await client.query('UPDATE svc_rate_hits SET hits = $2::bigint[], expires_at = $3 WHERE key = $1', [
          key,
          times,
          nowMs + longest,
        ]);
        return null;
      });
    },
    async peek(key, rules, nowMs) {
      const { rows } = await pool.query<{ hits: string[] }>('SELECT hits FROM svc_rate_hits WHERE key = $1', [key]);
      const waitMs = waitForHit((rows[0]?.hits ?? []).map(Number), rules, nowMs);
      return waitMs > 0 ? waitMs : null;
    },
    async clear(key) {
      await pool.query('DELETE FROM svc_rate_hits WHERE key = $1', [key]);
    },
    async lockedFor(key, nowMs) {
      const { rows } = await pool.query<{ locked_until: string }>(
        'SELECT locked_until FROM svc_failures WHERE key = $1',
        [key],
      );
      const lock = Number(rows[0]?.locked_until ?? 0);
      return lock > nowMs ? lock - nowMs : null;
    },
    async failures(key, nowMs) {
      const { rows } = await pool.query<{ failures: number; locked_until: string }>(
        'SELECT failures, locked_until FROM svc_failures WHERE key = $1',
        [key],
      );
      return failuresOf(rows[0], nowMs);
    },
    async fail(key, nowMs, rule) {
      await pool.query(FAIL, [key, nowMs, rule.max, rule.lockMs, FORGET_FAILURES_MS]);
    },
    async succeed(key) {
      await pool.query('DELETE FROM svc_failures WHERE key = $1', [key]);
    },
    async trackedFailures() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM svc_failures');
      return rows[0]!.n;
    },
    async holdAttempt(key, hold, nowMs, max, leaseMs) {
      const { rows } = await pool.query<{ held: boolean }>('SELECT svc_hold_attempt($1, $2, $3, $4, $5) AS held', [
        key,
        hold,
        nowMs,
        max,
        leaseMs,
      ]);
      return rows[0]!.held;
    },
    async releaseAttempt(key, hold) {
      await pool.query('DELETE FROM svc_failure_holds WHERE key = $1 AND hold = $2', [key, hold]);
    },
  };
}
