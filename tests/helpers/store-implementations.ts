import { randomBytes } from 'node:crypto';
import { createIdGenerator } from '../../daemon/ids.js';
import { cryptoRandom } from '../../daemon/random.js';
import { createMemoryStores, openFileStores } from '../../daemon/store/index.js';
import { createSealer } from '../../daemon/store/sealer.js';
import type { RuntimeStores, Stores } from '../../daemon/store/types.js';
import type { RuntimeStoreOptions } from '../../daemon/store/runtime/index.js';
import { createMemoryRuntimeStores, openJournalRuntimeStores } from '../../daemon/store/runtime/open.js';
import { postgresRuntimeFactory } from './postgres-runtime-stores.js';
import { postgresStoresFactory } from './postgres-stores.js';
import { FakeClock } from './fake-clock.js';
import { tempDir } from './temp-dir.js';

/**
 * Builds one implementation of the storage seam. `reopen` (the durable ones) closes the stores and
 * opens them again over the same data: what a restart would find.
 */
export type StoreFactory = () => Promise<{ stores: Stores; clock: FakeClock; reopen?: () => Promise<Stores> }>;

// One sealing key for the whole run, so a reopened file store can open what the first one sealed.
const key = randomBytes(32);
export const storeDepsFor = (clock: FakeClock) => ({
  clock,
  ids: createIdGenerator(clock, cryptoRandom),
  sealer: createSealer(key),
  outboxMax: 5,
});

/** Every implementation of the seam, for conformance suites that run against each. */
export const storeImplementations: Record<string, StoreFactory> = {
  memory: async () => {
    const clock = new FakeClock();
    return { stores: await createMemoryStores(storeDepsFor(clock)), clock };
  },
  journal: async () => {
    const dir = tempDir('svc-store');
    const clock = new FakeClock();
    let current = await openFileStores(dir, storeDepsFor(clock));
    return {
      stores: current,
      clock,
      reopen: async () => {
        await current.close();
        current = await openFileStores(dir, storeDepsFor(clock));
        return current;
      },
    };
  },
  // Team mode's account stores on the test cluster (absent where PostgreSQL is not installed; the
  // run says so in one line).
  ...postgresStoresFactory(storeDepsFor),
};

/**
 * One implementation of a Company runtime's stores, with `options` (caps, retention) where a case
 * sets them; `reopen` closes these and opens the folder again.
 */
export type RuntimeStoreFactory = (options?: RuntimeStoreOptions) => Promise<{
  stores: RuntimeStores;
  dir?: string;
  reopen?: () => Promise<RuntimeStores>;
}>;

/** Every implementation of the per-Company stores (memory, the Company's journal), for their conformance suites. */
export const runtimeStoreImplementations: Record<string, RuntimeStoreFactory> = {
  memory: async (options) => ({ stores: createMemoryRuntimeStores(options) }),
  journal: async (options) => {
    const dir = tempDir('svc-runtime-store');
    let current = await openJournalRuntimeStores(dir, options);
    const reopen = async () => {
      await current.close();
      return (current = await openJournalRuntimeStores(dir, options));
    };
    return { stores: current, dir, reopen };
  },
  // The team-mode tables on the test cluster, a fresh Company per case (absent without PostgreSQL).
  ...postgresRuntimeFactory(),
};
