import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { WindowRule } from '../../http/rate-limit.js';
import { withTransaction } from './connect.js';

/**
 * The rate limiter of daemon/http/rate-limit.ts (a sliding log over one or more windows), kept in
 * PostgreSQL so every daemon counts into the same bucket: 5 signups per hour means 5 across the
 * deployment, not 5 per daemon. Same answers as the in-memory one: null when the attempt is
 * counted, else the seconds until it would be allowed (a refused attempt is not counted).
 */
export interface SharedRateLimiter {
  hit(key: string): Promise<number | null>;
  reset(key: string): Promise<void>;
  /** Drops buckets whose every attempt has left the longest window; returns how many. */
  sweep(): Promise<number>;
}

/** The decision, apart from storage: the seconds to wait, or 0 when `now` may be counted. */
export function waitForHit(times: readonly number[], rules: readonly WindowRule[], now: number): number {
  let waitMs = 0;
  for (const rule of rules) {
    const inWindow = times.filter((t) => t > now - rule.windowMs);
    if (inWindow.length >= rule.limit) waitMs = Math.max(waitMs, inWindow[inWindow.length - rule.limit]! + rule.windowMs - now);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/**
 * `name` keeps limiters apart (the signup and the recovery bucket of one e-mail are different
 * buckets). Times are the daemon's clock, as everywhere else; daemons' clocks should agree to
 * within a second (NTP), or a bucket's window is off by their difference.
 */
export function createSharedRateLimiter(pool: pg.Pool, clock: Clock, name: string, rules: WindowRule[]): SharedRateLimiter {
  const longest = Math.max(...rules.map((r) => r.windowMs));
  const keyOf = (key: string) => `${name}:${key}`;
  return {
    hit(key) {
      return withTransaction(pool, async (client) => {
        // The upsert creates the bucket or takes its row lock: concurrent hits on one key, from any
        // daemon, decide one after the other, each seeing the attempts counted before it.
        const { rows } = await client.query<{ hits: string[] }>(
          `INSERT INTO svc_rate_hits (key, hits, expires_at) VALUES ($1, '{}', 0)
           ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key RETURNING hits`,
          [keyOf(key)],
        );
        const now = clock.now();
        const times = rows[0]!.hits.map(Number).filter((t) => t > now - longest);
        const wait = waitForHit(times, rules, now);
        if (wait === 0) times.push(now);
        await client.query('UPDATE svc_rate_hits SET hits = $2::bigint[], expires_at = $3 WHERE key = $1', [keyOf(key), times, now + longest]);
        return wait === 0 ? null : wait;
      });
    },
    async reset(key) {
      await pool.query('DELETE FROM svc_rate_hits WHERE key = $1', [keyOf(key)]);
    },
    async sweep() {
      const { rowCount } = await pool.query('DELETE FROM svc_rate_hits WHERE key LIKE $1 AND expires_at <= $2', [`${name.replace(/[\\%_]/g, '\\$&')}:%`, clock.now()]);
      return rowCount ?? 0;
    },
  };
}
