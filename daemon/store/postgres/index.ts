import { openDatabase, type Database, type DatabaseOptions } from './connect.js';
import { runMigrations, type MigrationResult } from './migrate.js';
import { type DatabaseSecrets, loadDatabaseSecrets } from './secrets.js';

export { checkDatabaseUrl, redactDatabaseUrl, type Database } from './connect.js';
export { openPostgresEventLog, type PostgresEventLog } from './event-log.js';
export { createEventNotifier, type EventNotifier } from './event-notifier.js';
export { createPostgresLimitStore } from './limit-store.js';
export { createOperatorTokenStore, type OperatorTokenStore } from './operator-tokens.js';

export interface TeamDatabase {
  db: Database;
  secrets: DatabaseSecrets;
  migration: MigrationResult;
}

/**
 * What a team-mode daemon does first: connect, bring the schema up to date (one daemon migrates,
 * the others wait), then read (or, the very first time, create) the deployment's secrets.
 */
export async function openTeamDatabase(url: string, options: DatabaseOptions = {}): Promise<TeamDatabase> {
  const db = await openDatabase(url, options);
  try {
    const migration = await runMigrations(db.pool);
    const secrets = await loadDatabaseSecrets(db.pool);
    return { db, secrets, migration };
  } catch (err) {
    await db.close();
    throw err;
  }
}
