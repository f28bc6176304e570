import { openDatabase, type Database } from '../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../daemon/store/postgres/migrate.js';
import { createPostgresRuntimeStores } from '../../daemon/store/postgres/runtime/index.js';
import type { RuntimeStoreFactory } from './store-implementations.js';
import { testPostgres } from './postgres.js';

/** Two pools on one migrated database of the test cluster: two "daemons". */
export type TwoDaemons = [Database, Database];

let pools: Promise<TwoDaemons> | null = null;
let companies = 0;

/** The run's two pools (opened once, on first use); null where PostgreSQL is not installed. */
export function runtimeTestPools(): (() => Promise<TwoDaemons>) | null {
  const cluster = testPostgres();
  if (!cluster) return null;
  return () =>
    (pools ??= (async () => {
      const url = await (await cluster()).createDatabase();
      const first = await openDatabase(url, { max: 8 });
      await runMigrations(first.pool);
      return [first, await openDatabase(url, { max: 8 })];
    })());
}

/** A Company id no other test uses: every case starts with an empty Company, beside the others. */
export const freshCompany = () => `co_rt_${process.pid}_${++companies}`;

/**
 * The per-Company stores on PostgreSQL for the runtime conformance suites, one fresh Company per
 * case; `reopen` reads the same Company through the second pool, as another daemon (or this one
 * after a restart) would. Absent where PostgreSQL is not installed (the run says so in one line).
 */
export function postgresRuntimeFactory(): Record<string, RuntimeStoreFactory> {
  const open = runtimeTestPools();
  if (!open) return {};
  return {
    postgres: async (options) => {
      const [first, second] = await open();
      const company = freshCompany();
      return {
        stores: createPostgresRuntimeStores(first.pool, company, options),
        reopen: async () => createPostgresRuntimeStores(second.pool, company, options),
      };
    },
  };
}
