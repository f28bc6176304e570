import type pg from 'pg';
import { withTransaction } from './connect.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

/**
 * Any fixed number works; it only has to be the same for every svc daemon. The lock is
 * transaction-scoped, so it is released by COMMIT or ROLLBACK and a crashed daemon cannot hold it.
 */
const MIGRATION_LOCK = 7_566_947; // 'svc' as a number

export interface MigrationResult {
  /** Versions this call applied (empty when another daemon, or an earlier start, already had). */
  applied: number[];
  /** The schema version the database is at now. */
  version: number;
}

/**
 * Brings the schema up to date in one transaction under an advisory lock: of two daemons starting
 * at once, the second waits for the first to commit, then finds nothing left to do. A migration
 * that fails rolls everything back, so the database is never left half-migrated.
 */
export async function runMigrations(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationResult> {
  const known = Math.max(0, ...migrations.map((m) => m.version));
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Created under the lock: two concurrent CREATE TABLE IF NOT EXISTS can still collide.
    await client.query(`CREATE TABLE IF NOT EXISTS svc_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM svc_schema_migrations ORDER BY version',
    );
    const done = new Set(rows.map((r) => r.version));
    const newest = rows.at(-1)?.version ?? 0;
    if (newest > known) {
      // An older svc must not write to a schema it does not know (a rolling upgrade gone backwards).
      throw new Error(
        `the database schema is at version ${newest} but this svc knows only up to ${known}: upgrade svc on this machine`,
      );
    }
    // Versions are numbered in ranges (1… accounts, 100… per-Company), so a newer release can add one
    // below the newest this svc knows: any applied version it does not know is refused the same way.
    const unknown = rows.find((r) => !migrations.some((m) => m.version === r.version));
    if (unknown)
      throw new Error(
        `the database schema has migration ${unknown.version}, which this svc does not know: upgrade svc on this machine`,
      );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      try {
        await client.query(m.sql);
      } catch (err) {
        throw new Error(`database migration ${m.version} (${m.name}) failed: ${(err as Error).message}`);
      }
      await client.query('INSERT INTO svc_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return { applied, version: Math.max(newest, known) };
  });
}
