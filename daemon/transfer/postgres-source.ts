import type pg from 'pg';
import {
  ACCOUNT_TABLES as PG_ACCOUNT_TABLES,
  type AccountTableName,
  dumpAccountTable,
} from '../store/postgres/accounts/transfer.js';
import { openDatabase } from '../store/postgres/connect.js';
import { MIGRATIONS } from '../store/postgres/migrations/index.js';
import {
  EVENTS,
  OAUTH_RECORDS,
  RUNTIME_TABLE_NAMES,
  SECRET_FILES,
  SECRETS,
  type ArchiveRecord,
} from './archive-tables.js';
import { readPgOAuthRecords } from './postgres-oauth.js';
import { refuseUnknownTables } from './postgres-coverage.js';
import { readPgEvents } from './postgres-events.js';
import { readPgAudit } from './audit-transfer.js';
import { readPgLimits } from './postgres-limits.js';
import { PG_RUNTIME_TABLES } from './postgres-runtime-rows.js';
import { readPgRuntimeTable } from './postgres-table-shape.js';

const COMPANIES = `SELECT company_id FROM svc_event_heads
  UNION SELECT company_id FROM svc_rt_agents UNION SELECT company_id FROM svc_rt_sessions
  UNION SELECT company_id FROM svc_rt_messages UNION SELECT company_id FROM svc_rt_quests
  UNION SELECT company_id FROM svc_rt_configured_events UNION SELECT company_id FROM svc_rt_firings UNION SELECT company_id FROM svc_rt_retries
  UNION SELECT company_id FROM svc_rt_tick_cursors UNION SELECT company_id FROM svc_rt_channels
  UNION SELECT company_id FROM svc_rt_questions UNION SELECT company_id FROM svc_rt_deliveries
  UNION SELECT company_id FROM svc_rt_idempotency
  ORDER BY 1`;

/**
 * Everything a team-mode database holds, as archive records, read inside ONE repeatable-read,
 * read-only transaction: like pg_dump, a consistent snapshot even while daemons keep writing.
 */
export async function* readPostgres(url: string): AsyncGenerator<ArchiveRecord> {
  const db = await openDatabase(url, { max: 1 });
  let client: pg.PoolClient | undefined;
  try {
    client = await db.pool.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await checkSchema(client, db.label);
    await refuseUnknownTables(client, db.label);
    const secrets = await client.query<{ name: string; value: string }>(
      'SELECT name, value FROM svc_secrets WHERE name = ANY($1::text[]) ORDER BY name',
      [Object.keys(SECRET_FILES)],
    );
    for (const record of secrets.rows) yield { table: SECRETS, company: null, record: { ...record } };
    for (const name of Object.keys(PG_ACCOUNT_TABLES) as AccountTableName[])
      for (const record of await dumpAccountTable(client, name))
        yield { table: `accounts.${name}`, company: null, record: record as unknown as Record<string, unknown> };
    for await (const record of readPgOAuthRecords(client)) yield { table: OAUTH_RECORDS, company: null, record };
    for await (const r of readPgLimits(client))
      yield { ...r, company: null, record: r.record as Record<string, unknown> };
    const companies = await client.query<{ company_id: string }>(COMPANIES);
    for (const { company_id: company } of companies.rows) {
      for (const name of RUNTIME_TABLE_NAMES)
        for await (const record of readPgRuntimeTable(client, PG_RUNTIME_TABLES[name], company))
          yield { table: `runtime.${name}`, company, record };
      for await (const row of readPgEvents(client, company))
        yield { table: EVENTS, company, record: row as unknown as Record<string, unknown> };
    }
    yield* readPgAudit(client);
    await client.query('COMMIT');
  } finally {
    // After an early stop the transaction is still open: end it before the connection goes back.
    await client?.query('ROLLBACK').catch(() => {});
    client?.release();
    await db.close();
  }
}

/** An export reads only a schema this svc knows: a newer one may hold what it would leave out. */
async function checkSchema(client: pg.PoolClient, label: string): Promise<void> {
  const found = await client.query<{ ok: boolean }>("SELECT to_regclass('svc_schema_migrations') IS NOT NULL AS ok");
  if (!found.rows[0]!.ok) throw new Error(`the database at ${label} has no svc schema: nothing to export`);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM svc_schema_migrations');
  const unknown = rows.find((r) => !MIGRATIONS.some((m) => m.version === r.version));
  if (unknown)
    throw new Error(
      `the database at ${label} has schema migration ${unknown.version}, which this svc does not know: export with the svc that runs it`,
    );
  const missing = MIGRATIONS.find((m) => !rows.some((r) => r.version === m.version));
  if (missing)
    throw new Error(
      `the database at ${label} lacks schema migration ${missing.version}: start a daemon on it once, then export`,
    );
}
