import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../../../daemon/store/postgres/migrate.js';
import type { TestPostgres } from '../../../helpers/postgres.js';

/**
 * A migrated database and as many pools on it as a test wants, each standing for one daemon
 * (no connection shared), all closed by `closeAll`.
 */
export class PgFixture {
  url = '';
  private readonly pools: Database[] = [];

  constructor(private readonly cluster: () => Promise<TestPostgres>) {}

  async setup(): Promise<void> {
    this.url = await (await this.cluster()).createDatabase();
    const db = await this.daemon();
    await runMigrations(db.pool);
  }

  async daemon(max = 5): Promise<Database> {
    const db = await openDatabase(this.url, { max });
    this.pools.push(db);
    return db;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.pools.splice(0).map((db) => db.close()));
  }
}
