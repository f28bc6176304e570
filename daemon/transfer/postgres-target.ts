import type pg from 'pg';
import {
  ACCOUNT_TABLES as PG_ACCOUNT_TABLES,
  type AccountTableName,
  loadAccountRecords,
} from '../store/postgres/accounts/transfer.js';
import { openDatabase, withTransaction } from '../store/postgres/connect.js';
import { runMigrations } from '../store/postgres/migrate.js';
import { ACCOUNT_TABLES, EVENTS, OAUTH_RECORDS, SECRETS, type ArchiveRecord } from './archive-tables.js';
import { insertPgOAuthRecord } from './postgres-oauth.js';
import { createPgEventLoader } from './postgres-events.js';
import { AUDIT, pgAuditLoader } from './audit-transfer.js';
import type { NewAuditEntry } from '../store/audit-types.js';
import { FAILURES, insertPgLimit, RATE_BUCKETS } from './postgres-limits.js';
import { PG_RUNTIME_TABLES } from './postgres-runtime-rows.js';
import type { PgRuntimeTable } from './postgres-table-shape.js';
import type { RuntimeTableName } from './archive-tables.js';

/** Any fixed number: two imports into one database at once take turns, and the second finds it not empty. */
const IMPORT_LOCK = 7_566_948;

/**
 * Loads archive records into a team-mode database in ONE transaction: the schema is brought up to
 * date first, then under an advisory lock the database is checked to be empty and everything is
 * inserted. Any failure, or a crash of this process or the server, rolls all of it back: the
 * database is either as it was or holds the whole archive.
 */
export async function writePostgres(
  url: string,
  records: () => AsyncIterable<ArchiveRecord>,
  importEntry?: NewAuditEntry,
): Promise<void> {
  const db = await openDatabase(url, { max: 1 });
  try {
    await refuseNonEmpty(db.pool, db.label);
    await runMigrations(db.pool);
    await withTransaction(db.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
      await refuseNonEmpty(client, db.label);
      let events: ReturnType<typeof createPgEventLoader> | null = null;
      const audit = pgAuditLoader(client);
      let company: string | null = null;
      // Consecutive records of one table that can go many to a statement wait here (at most 500).
      let pending: { table: PgRuntimeTable; company: string; records: Record<string, unknown>[] } | null = null;
      const flush = async () => {
        if (pending) await pending.table.insertMany!(client, pending.company, pending.records);
        pending = null;
      };
      for await (const r of records()) {
        const many = r.table.startsWith('runtime.') ? runtimeTable(r.table) : undefined;
        if (pending && (pending.table !== many || pending.company !== r.company || pending.records.length >= 500))
          await flush();
        if (r.company !== company) {
          await events?.finish();
          events = null;
          company = r.company;
        }
        if (r.table === AUDIT) await audit.add(r.record);
        else if (r.table === EVENTS) {
          events ??= createPgEventLoader(client, r.company!);
          await events.add(r.record as never);
        } else if (many?.insertMany) {
          pending ??= { table: many, company: r.company!, records: [] };
          pending.records.push(r.record);
        } else await insertRecord(client, r);
      }
      await flush();
      await events?.finish();
      await audit.finish(importEntry);
    });
  } finally {
    await db.close();
  }
}

async function insertRecord(client: pg.PoolClient, r: ArchiveRecord): Promise<void> {
  if (r.table === SECRETS) {
    await client.query('INSERT INTO svc_secrets (name, value) VALUES ($1, $2)', [r.record.name, r.record.value]);
  } else if (r.table === RATE_BUCKETS || r.table === FAILURES) {
    await insertPgLimit(client, r.table, r.record);
  } else if (r.table.startsWith('runtime.')) {
    await runtimeTable(r.table).insert(client, r.company!, r.record);
  } else if (r.table === OAUTH_RECORDS) {
    await insertPgOAuthRecord(client, r.record);
  } else if (ACCOUNT_TABLES.includes(r.table)) {
    await insertAccountRecord(client, r.table, r.record);
  }
}

const runtimeTable = (table: string): PgRuntimeTable =>
  PG_RUNTIME_TABLES[table.slice('runtime.'.length) as RuntimeTableName];

/** The account side of team mode (daemon/store/postgres/accounts/transfer.ts): the same records, as rows. */
async function insertAccountRecord(client: pg.PoolClient, table: string, record: object): Promise<void> {
  const name = table.slice('accounts.'.length);
  // The record engine's own bookkeeping (expiry cursors, upgrade markers) has no place in PostgreSQL:
  // its tables are swept by their own statements.
  if (name === 'meta') return;
  if (!(name in PG_ACCOUNT_TABLES)) throw new Error(`this svc cannot store ${table} in PostgreSQL`);
  await loadAccountRecords(client, name as AccountTableName, [record as never]);
}

/**
 * Empty means: no row in any svc_ table but the migration history (a database a daemon has
 * started on already holds its secrets). Table names come from the catalog, quoted as identifiers.
 */
async function refuseNonEmpty(q: pg.Pool | pg.PoolClient, label: string): Promise<void> {
  const { rows } = await q.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND table_name LIKE 'svc\\_%' AND table_name <> 'svc_schema_migrations' ORDER BY 1`,
  );
  for (const { name } of rows) {
    const found = await q.query(`SELECT 1 FROM "${name.replace(/"/g, '""')}" LIMIT 1`);
    if ((found.rowCount ?? 0) > 0)
      throw new Error(
        `the database at ${label} is not empty (${name} has rows): import only into a new database, before any daemon starts on it`,
      );
  }
}
