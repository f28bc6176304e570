import type pg from 'pg';
import type { FlowStore, PendingDebounce } from '../../flow-types.js';
import { fromSqlText, sqlText } from './doc-table.js';

/**
 * One Company's flow-control state on PostgreSQL (migration 109): every daemon of a team admits,
 * claims and debounces against the same rows, each decision one round trip.
 */
export function createPostgresFlowStore(pool: pg.Pool, company: string): FlowStore {
  const one = async <T extends pg.QueryResultRow>(sql: string, params: unknown[]) =>
    (await pool.query<T>(sql, params)).rows[0];
  return {
    async admit(key, nowMs, limit, periodMs) {
      const row = await one<{ ok: boolean }>('SELECT svc_throttle_admit($1, $2, $3, $4, $5) AS ok', [
        company,
        sqlText(key),
        nowMs,
        limit,
        periodMs,
      ]);
      return row!.ok;
    },
    async claimSlot(key, holder, limit, nowMs) {
      const row = await one<{ ok: boolean }>('SELECT svc_flow_slot_claim($1, $2, $3, $4, $5) AS ok', [
        company,
        sqlText(key),
        sqlText(holder),
        limit,
        nowMs,
      ]);
      return row!.ok;
    },
    async slots(key) {
      const { rows } = await pool.query<{ holder: string; quest_ids: string[] | null; taken_ms: string }>(
        'SELECT holder, quest_ids, taken_ms FROM svc_rt_flow_slots WHERE company_id = $1 AND key = $2 ORDER BY taken_ms, holder',
        [company, sqlText(key)],
      );
      return rows.map((r) => ({
        holder: fromSqlText(r.holder),
        quest_ids: r.quest_ids?.map(fromSqlText) ?? null,
        taken_ms: Number(r.taken_ms),
      }));
    },
    async holdSlot(key, holder, questIds) {
      await pool.query(
        'UPDATE svc_rt_flow_slots SET quest_ids = $4 WHERE company_id = $1 AND key = $2 AND holder = $3',
        [company, sqlText(key), sqlText(holder), questIds.map(sqlText)],
      );
    },
    async releaseSlot(key, holder) {
      await pool.query('DELETE FROM svc_rt_flow_slots WHERE company_id = $1 AND key = $2 AND holder = $3', [
        company,
        sqlText(key),
        sqlText(holder),
      ]);
    },
    async debounce(entry, nowMs, periodMs, maxWaitMs) {
      const row = await one<{ replaced: string | null }>(
        'SELECT svc_debounce_push($1, $2, $3, $4, $5, $6, $7) AS replaced',
        [company, sqlText(entry.key), entry.configured_event_id, entry.event_id, nowMs, periodMs, maxWaitMs],
      );
      return { replaced: row?.replaced ?? null };
    },
    async takeDue(nowMs, limit) {
      const { rows } = await pool.query<Record<keyof PendingDebounce, string>>(
        `DELETE FROM svc_rt_debounces WHERE ctid IN (
           SELECT ctid FROM svc_rt_debounces WHERE company_id = $1 AND due_ms <= $2
           ORDER BY due_ms LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING key, configured_event_id, event_id, first_ms, due_ms`,
        [company, nowMs, limit],
      );
      return rows
        .map((r) => ({
          key: fromSqlText(r.key),
          configured_event_id: r.configured_event_id,
          event_id: r.event_id,
          first_ms: Number(r.first_ms),
          due_ms: Number(r.due_ms),
        }))
        .sort((a, b) => a.due_ms - b.due_ms);
    },
    async nextDueMs() {
      const row = await one<{ due: string | null }>(
        'SELECT min(due_ms) AS due FROM svc_rt_debounces WHERE company_id = $1',
        [company],
      );
      return row?.due == null ? null : Number(row.due);
    },
    async forget(prefix) {
      const start = sqlText(prefix);
      await Promise.all(
        ['svc_rt_windows', 'svc_rt_flow_slots', 'svc_rt_debounces'].map((table) =>
          pool.query(`DELETE FROM ${table} WHERE company_id = $1 AND left(key, length($2)) = $2`, [company, start]),
        ),
      );
    },
  };
}
