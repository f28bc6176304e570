import type pg from 'pg';
import type { PendingRetry, RetryChange, RetryStore } from '../../runtime-types.js';
import type { Queryable } from './doc-table.js';
import { sqlText } from './doc-table.js';

type Row = { doc: Omit<PendingRetry, 'state' | 'lease_until_ms'>; state: PendingRetry['state']; lease: string | null };
const COLUMNS = 'doc, state, lease_until_ms AS lease';
const recordOf = (r: Row): PendingRetry => ({
  ...r.doc,
  state: r.state,
  lease_until_ms: r.lease === null ? null : Number(r.lease),
});

/** Applies a dispatch's retry changes on `q` (the transaction that records its firings). */
export async function applyRetryChange(q: Queryable, company: string, change: RetryChange): Promise<void> {
  for (const id of change.remove ?? [])
    await q.query('DELETE FROM svc_rt_retries WHERE company_id = $1 AND id = $2', [company, sqlText(id)]);
  for (const r of change.put ?? []) {
    const { state, lease_until_ms, ...doc } = r;
    await q.query(
      `INSERT INTO svc_rt_retries (company_id, id, event_id, configured_event_id, attempt, state, due_ms, lease_until_ms, doc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (company_id, id) DO UPDATE SET attempt = EXCLUDED.attempt, state = EXCLUDED.state,
         due_ms = EXCLUDED.due_ms, lease_until_ms = EXCLUDED.lease_until_ms, doc = EXCLUDED.doc`,
      [
        company,
        sqlText(r.id),
        sqlText(r.event_id),
        sqlText(r.configured_event_id),
        r.attempt,
        state,
        r.due_ms,
        lease_until_ms,
        JSON.stringify(doc),
      ],
    );
  }
}

/**
 * When the walker should wake: the first pending retry's due time or the first running one's lease
 * end (an interrupted attempt is taken over then), each the first row of an index (migration 108),
 * so it costs the same however many retries wait. `least` skips the side that has none.
 */
export const NEXT_DUE = `SELECT least(
  (SELECT due_ms FROM svc_rt_retries WHERE company_id = $1 AND state = 'pending' ORDER BY due_ms LIMIT 1),
  (SELECT lease_until_ms FROM svc_rt_retries WHERE company_id = $1 AND state = 'running' ORDER BY lease_until_ms LIMIT 1)
) AS at`;

/**
 * Pending retries of team mode. A claim is one conditional UPDATE … RETURNING: PostgreSQL locks
 * the row, re-checks the condition after a concurrent update, and so of several daemons walking
 * at once exactly one takes an attempt, and the others see no row.
 */
export function createRetryStore(pool: pg.Pool, company: string): RetryStore {
  return {
    due: async (nowMs, limit) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM svc_rt_retries WHERE company_id = $1 AND due_ms <= $2
         AND (state = 'pending' OR lease_until_ms <= $2) ORDER BY due_ms LIMIT $3`,
        [company, nowMs, limit],
      );
      return rows.map(recordOf);
    },
    nextDueMs: async () => {
      const { rows } = await pool.query<{ at: string | null }>(NEXT_DUE, [company]);
      return rows[0]?.at == null ? null : Number(rows[0].at);
    },
    claim: async (id, attempt, nowMs, leaseMs) => {
      const { rows } = await pool.query<Row>(
        `UPDATE svc_rt_retries SET state = 'running', lease_until_ms = $4
         WHERE company_id = $1 AND id = $2 AND attempt = $3 AND state = 'pending' AND due_ms <= $5
         RETURNING ${COLUMNS}`,
        [company, sqlText(id), attempt, nowMs + leaseMs, nowMs],
      );
      return rows[0] && recordOf(rows[0]);
    },
    takeInterrupted: async (id, attempt, nowMs) => {
      const { rows } = await pool.query<Row>(
        `DELETE FROM svc_rt_retries
         WHERE company_id = $1 AND id = $2 AND attempt = $3 AND state = 'running' AND lease_until_ms <= $4
         RETURNING ${COLUMNS}`,
        [company, sqlText(id), attempt, nowMs],
      );
      return rows[0] && recordOf(rows[0]);
    },
    countFor: async (configuredEventId) => {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM svc_rt_retries WHERE company_id = $1 AND configured_event_id = $2',
        [company, sqlText(configuredEventId)],
      );
      return Number(rows[0]?.n ?? 0);
    },
    of: async (eventId) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM svc_rt_retries WHERE company_id = $1 AND event_id = $2 ORDER BY id`,
        [company, sqlText(eventId)],
      );
      return rows.map(recordOf);
    },
  };
}
