import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles } from '../../shared/paths.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { loadSecrets, type Secrets } from '../data-dir.js';
import type { IdGenerator } from '../ids.js';
import type { Logger } from '../logger.js';
import type { PairingStore } from './pairing-store.js';
import { createPostgresPairingStore } from './postgres/pairings.js';
import type { RuntimeStorage } from './runtime-storage.js';
import { openFileStores } from './index.js';
import { createEventNotifier } from './postgres/event-notifier.js';
import { openTeamDatabase } from './postgres/index.js';
import { createPostgresLimitStore } from './postgres/limit-store.js';
import { openPostgresAccountStores } from './postgres/accounts/index.js';
import { createSealer } from './sealer.js';
import type { Stores } from './types.js';

/** Where one daemon keeps everything: its data folder (the JSON store) or team mode's database. */
export interface DaemonStorage {
  secrets: Secrets;
  stores: Stores;
  runtimes: RuntimeStorage;
  /** Shared pairings in team mode; absent, the pairing routes keep them in memory. */
  pairings?: PairingStore;
  /** For the start-up log: the data folder, or the database URL without its password. */
  label: string;
  team: boolean;
  /** After the runtimes and the stores are closed: the listening connection and the pool. */
  close(): Promise<void>;
}

export interface StorageDeps {
  clock: Clock;
  ids: IdGenerator;
  log: Logger;
}

export async function openDaemonStorage(config: Config, deps: StorageDeps): Promise<DaemonStorage> {
  if (config.databaseUrl) return openTeamStorage(config.databaseUrl, config, deps);
  const secrets = loadSecrets(config.dataDir);
  const storeDeps = { ...deps, sealer: createSealer(secrets.mailKey), outboxMax: config.outboxMax };
  const stores = await openFileStores(config.dataDir, storeDeps, deps.log);
  return { secrets, stores, runtimes: 'file', label: config.dataDir, team: false, close: async () => {} };
}

/**
 * Team mode (CONTRACT §2): the secrets, every account record, the limits, the pairings and each
 * Company's records and event log live in one PostgreSQL database, so every daemon started with
 * the same URL serves the same deployment. The data folder keeps only this daemon's lock and log.
 */
async function openTeamStorage(url: string, config: Config, deps: StorageDeps): Promise<DaemonStorage> {
  const onError = (what: string) => (err: Error) => deps.log.warn(what, { err: err.message });
  const { db, secrets, migration } = await openTeamDatabase(url, { onIdleError: onError('database connection lost') });
  if (migration.applied.length) deps.log.info('database schema migrated', { applied: migration.applied });
  const notifier = createEventNotifier({ url, pool: db.pool, onError: onError('event notifications interrupted') });
  try {
    const sealer = createSealer(secrets.mailKey);
    const accounts = await openPostgresAccountStores(db.pool, { ...deps, sealer, outboxMax: config.outboxMax });
    // Limits count across daemons (10 failed logins over two daemons lock the account).
    const stores: Stores = { ...accounts, limits: createPostgresLimitStore(db.pool) };
    keepOperatorToken(config.dataDir, secrets.operatorToken);
    return {
      secrets,
      stores,
      runtimes: { kind: 'postgres', pool: db.pool, notifier },
      pairings: createPostgresPairingStore(db.pool),
      label: db.label,
      team: true,
      async close() {
        await notifier.close();
        await db.close();
      },
    };
  } catch (err) {
    await notifier.close();
    await db.close();
    throw err;
  }
}

/**
 * The operator token also goes into this daemon's data folder (0600, in a 0700 folder, rewritten at
 * every start so a rotation reaches it), so `svc mail` and `svc admin` on the daemon's machine find
 * it as they do for a local daemon. That machine already holds the database URL, which is more.
 */
function keepOperatorToken(dataDir: string, token: string): void {
  writeFileSync(join(dataDir, dataFiles.operatorToken), `${token}\n`, { mode: 0o600 });
}
