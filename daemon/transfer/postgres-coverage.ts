import type pg from 'pg';
import { ACCOUNT_TABLES } from '../store/postgres/accounts/transfer.js';

/**
 * Every svc_ table of the schema, and whether an export moves it. A table the schema has and this
 * list does not (a migration added it, nobody taught the transfer) stops the export rather than
 * leave its rows behind unnoticed: add it here, with its place in the archive, when you add it.
 */
const MOVED = new Set([
  'svc_secrets',
  'svc_events',
  'svc_event_heads',
  'svc_rate_hits',
  'svc_failures',
  'svc_oauth_records',
  ...Object.values(ACCOUNT_TABLES).map((t) => t.name),
  'svc_rt_agents',
  'svc_rt_sessions',
  'svc_rt_messages',
  'svc_rt_quests',
  'svc_rt_configured_events',
  'svc_rt_firings',
  'svc_rt_retries',
  'svc_rt_tick_cursors',
  'svc_rt_channels',
  'svc_rt_questions',
  'svc_rt_deliveries',
  'svc_rt_idempotency',
  'svc_rt_settings',
  'svc_rt_failures',
  // The audit trail (migration 30): its entries as sealed; the heads are rebuilt from them.
  'svc_audit_entries',
  'svc_audit_heads',
]);
const NOT_MOVED = new Set([
  // The schema's own history: the target has its own.
  'svc_schema_migrations',
  // Team mode's tick claims: the tick cursors (svc_rt_tick_cursors) carry each schedule's place.
  'svc_schedule_ticks',
  // `svc login --web` pairings in flight (pg-team, migration 90): ten minutes each; a user starts another.
  'svc_pairings',
  // Window counts and cooldowns (migration 103): minutes of state; a JSON daemon keeps them in memory.
  'svc_rt_windows',
  // Flow control (migration 109): open slots and debounces waiting for quiet, seconds to minutes of state.
  'svc_rt_flow_slots',
  'svc_rt_debounces',
  // Attempts in flight under a failure ceiling (migration 104): seconds of state, held by live requests.
  'svc_failure_holds',
  // Hashes of team mode's operator tokens (migration 4): no token can be rebuilt from one. A data
  // folder's daemon makes its own token at first start; a database's daemons register theirs.
  'svc_operator_tokens',
]);

export async function refuseUnknownTables(client: pg.PoolClient, label: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_name LIKE 'svc\\_%' ORDER BY 1`,
  );
  const unknown = rows.map((r) => r.name).filter((n) => !MOVED.has(n) && !NOT_MOVED.has(n));
  if (unknown.length > 0)
    throw new Error(
      `the database at ${label} has tables this export does not know how to move (${unknown.join(', ')}): nothing was written; report this as a bug`,
    );
}
