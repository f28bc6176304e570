import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { sqlText } from './doc-table.js';

/**
 * Every table holding one Company's runtime under its `company_id`: records, the event log and its
 * head, schedule tick cursors. Constants, never input. The audit trail is not among them: it
 * outlives the Company it describes.
 */
export const RUNTIME_TABLES = [
  'svc_rt_agents',
  'svc_rt_channels',
  'svc_rt_configured_events',
  'svc_rt_debounces',
  'svc_rt_deliveries',
  'svc_rt_failures',
  'svc_rt_firings',
  'svc_rt_flow_slots',
  'svc_rt_idempotency',
  'svc_rt_messages',
  'svc_rt_questions',
  'svc_rt_quests',
  'svc_rt_retries',
  'svc_rt_sessions',
  'svc_rt_settings',
  'svc_rt_tick_cursors',
  'svc_rt_windows',
  'svc_events',
  'svc_event_heads',
] as const;

/**
 * Deletes a deleted Company's runtime rows in one transaction. Another daemon that has the Company
 * open keeps a runtime with nothing left to walk (its scheduler, retries and debounces read these
 * tables at each walk), and tenant selection refuses every request for the Company there too.
 */
export async function deletePostgresRuntime(pool: pg.Pool, companyId: string): Promise<void> {
  await withTransaction(pool, async (client) => {
    for (const table of RUNTIME_TABLES)
      await client.query(`DELETE FROM ${table} WHERE company_id = $1`, [sqlText(companyId)]);
  });
}
