import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Logger } from '../logger.js';
import { createMemorySpace } from './engine/memory-space.js';
import type { Space } from './engine/types.js';
import { openJournalSpace } from './journal/index.js';
import { createCodeStore } from './accounts/codes.js';
import { createChallengeStore, createPasskeyStore, createWalletStore } from './accounts/factors.js';
import { importLegacyFiles } from './accounts/legacy-import.js';
import { createLimitStore } from './accounts/limits.js';
import { createOutbox } from './accounts/outbox.js';
import { createSessionStore } from './accounts/sessions.js';
import { defineAccountTables } from './accounts/tables.js';
import { createCompanyStore, createKeyStore } from './accounts/tenancy.js';
import { createInviteStore, createUserStore } from './accounts/users.js';
import type { Sealer } from './sealer.js';
import type { Stores } from './types.js';

export interface StoreDeps {
  clock: Clock;
  ids: IdGenerator;
  sealer: Sealer;
  outboxMax: number;
}

/**
 * The account stores of the data folder: one JSON Lines journal, `accounts/`. On the first
 * start over a folder of an earlier release, its lowdb documents are imported (legacy-import.ts).
 */
export async function openFileStores(
  dataDir: string,
  deps: StoreDeps,
  log?: Pick<Logger, 'info' | 'warn'>,
): Promise<Stores> {
  const space = await openJournalSpace(dataDir, { name: 'accounts' });
  for (const problem of space.recovery) log?.warn('accounts journal recovered at open', { problem });
  try {
    const stores = buildStores(space, deps);
    const imported = await importLegacyFiles(dataDir, stores.tables, {
      outboxMax: deps.outboxMax,
      nowMs: deps.clock.now(),
    });
    if (imported.length > 0) {
      log?.info('data folder upgraded to the journal format; the old files are kept as backups', {
        imported: imported.map((n) => `${n}.json → ${n}.json.pre-journal`),
      });
    }
    return stores.stores;
  } catch (err) {
    await space.close();
    throw err;
  }
}

/** The in-memory stores: the same domain code over the memory backend of the record engine. */
export async function createMemoryStores(deps: StoreDeps): Promise<Stores> {
  return buildStores(createMemorySpace(), deps).stores;
}

function buildStores(space: Space, deps: StoreDeps) {
  const tables = defineAccountTables(space);
  const stores: Stores = {
    users: createUserStore(tables),
    invites: createInviteStore(tables),
    sessions: createSessionStore(tables),
    codes: createCodeStore(tables),
    companies: createCompanyStore(tables),
    keys: createKeyStore(tables),
    challenges: createChallengeStore(tables),
    passkeys: createPasskeyStore(tables),
    wallets: createWalletStore(tables),
    limits: createLimitStore(tables),
    outbox: createOutbox(tables, { clock: deps.clock, ids: deps.ids, sealer: deps.sealer, max: deps.outboxMax }),
    flush: () => space.flush(),
    close: () => space.close(),
  };
  return { stores, tables };
}
