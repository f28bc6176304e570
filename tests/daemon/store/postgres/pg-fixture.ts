import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../../../daemon/store/postgres/migrate.js';
import type { Test } from 'uvu';
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

  /**
   * Two daemons for a whole suite: `test` sets up a migrated database with two pools of `max`
   * connections on it before its first test and closes them after its last. The pools are read
   * from the answer once the suite runs (`daemons.a.pool`).
   */
  twoDaemons(test: Test, max = 5): { a: Database; b: Database } {
    const daemons = {} as { a: Database; b: Database };
    test.before(async () => {
      await this.setup();
      [daemons.a, daemons.b] = [await this.daemon(max), await this.daemon(max)];
    });
    test.after(() => this.closeAll());
    return daemons;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.pools.splice(0).map((db) => db.close()));
  }
}
