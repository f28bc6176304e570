import { createMemoryStores } from '../../daemon/store/index.js';
import { openDatabase, type Database } from '../../daemon/store/postgres/connect.js';
import { createPostgresLimitStore } from '../../daemon/store/postgres/limit-store.js';
import { runMigrations } from '../../daemon/store/postgres/migrate.js';
import type { Stores } from '../../daemon/store/types.js';
import type { StoreFactory } from './store-implementations.js';
import { FakeClock } from './fake-clock.js';
import { testPostgres } from './postgres.js';

/**
 * The seam's implementations that exist on PostgreSQL so far, for the store conformance suites:
 * `limits` on the test cluster, every other store in memory until its PostgreSQL version exists.
 * One database for the run, emptied for each suite case; `reopen` reads the limits through a
 * second pool (another connection, as a restarted daemon would), the memory stores stay as they were.
 */
export function postgresLimitsFactory(
  depsFor: (clock: FakeClock) => Parameters<typeof createMemoryStores>[0],
): Record<string, StoreFactory> {
  const cluster = testPostgres();
  if (!cluster) return {};
  let pools: Promise<[Database, Database]> | null = null;
  const open = () =>
    (pools ??= (async () => {
      const url = await (await cluster()).createDatabase();
      const first = await openDatabase(url, { max: 8 });
      await runMigrations(first.pool);
      return [first, await openDatabase(url, { max: 8 })];
    })());
  return {
    'postgres limits (others in memory)': async () => {
      const [first, second] = await open();
      await first.pool.query('TRUNCATE svc_rate_hits, svc_failures');
      const clock = new FakeClock();
      const memory = await createMemoryStores(depsFor(clock));
      const stores: Stores = { ...memory, limits: createPostgresLimitStore(first.pool) };
      return { stores, clock, reopen: async () => ({ ...memory, limits: createPostgresLimitStore(second.pool) }) };
    },
  };
}
