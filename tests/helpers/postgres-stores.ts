import type { StoreDeps } from '../../daemon/store/index.js';
import { openPostgresAccountStores } from '../../daemon/store/postgres/accounts/index.js';
import { ACCOUNT_TABLES } from '../../daemon/store/postgres/accounts/transfer.js';
import { openDatabase, type Database } from '../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../daemon/store/postgres/migrate.js';
import type { StoreFactory } from './store-implementations.js';
import { FakeClock } from './fake-clock.js';
import { testPostgres } from './postgres.js';

/** Every table the account stores write (the throttles' two included), emptied before each case. */
const TABLES = [
  ...Object.values(ACCOUNT_TABLES).map((t) => t.name),
  'svc_rate_hits',
  'svc_failures',
  'svc_audit_entries',
  'svc_audit_heads',
];

/**
 * The account stores on the test cluster, for the store conformance suites: one database for the
 * run, emptied for each case; `reopen` opens the stores again on a second pool (other connections,
 * as another daemon, or this one restarted, would). Absent where PostgreSQL is not installed (the
 * run says so in one line).
 */
export function postgresStoresFactory(depsFor: (clock: FakeClock) => StoreDeps): Record<string, StoreFactory> {
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
    postgres: async () => {
      const [first, second] = await open();
      // Table names are this module's constants, never input.
      await first.pool.query(`TRUNCATE ${TABLES.join(', ')}`);
      const clock = new FakeClock();
      const stores = await openPostgresAccountStores(first.pool, depsFor(clock));
      return { stores, clock, reopen: () => openPostgresAccountStores(second.pool, depsFor(clock)) };
    },
  };
}
