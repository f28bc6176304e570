import type pg from 'pg';
import type { WindowStore } from '../../window-types.js';
import { sqlText } from './doc-table.js';

/**
 * One Company's windows in `svc_rt_windows` (migration 103): every daemon counts into the same
 * rows, so the `count`-th event within the window fires once however the events were spread over
 * daemons, and a cooldown holds on all of them. A hit is one round trip (`svc_window_hit` records
 * it under the row's lock); only rules with a window matcher, and the loop and idea detectors, pay it.
 * Times are each daemon's clock (docs/deploy.md: clocks in step).
 */
export function createPostgresWindowStore(pool: pg.Pool, company: string): WindowStore {
  return {
    async hit(key, nowMs, rule) {
      const { rows } = await pool.query<{ fired: boolean }>('SELECT svc_window_hit($1, $2, $3, $4, $5, $6) AS fired', [
        company,
        sqlText(key),
        nowMs,
        rule.count,
        rule.within_ms,
        rule.cooldown_ms,
      ]);
      return rows[0]!.fired;
    },
    async coolingDown(key, nowMs) {
      const { rows } = await pool.query<{ cooling: boolean }>(
        'SELECT cooldown_until > $3 AS cooling FROM svc_rt_windows WHERE company_id = $1 AND key = $2',
        [company, sqlText(key), nowMs],
      );
      return rows[0]?.cooling ?? false;
    },
    async forget(prefix) {
      const start = sqlText(prefix);
      await pool.query('DELETE FROM svc_rt_windows WHERE company_id = $1 AND left(key, length($2)) = $2', [
        company,
        start,
      ]);
    },
  };
}
