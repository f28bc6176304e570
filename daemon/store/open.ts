import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
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
import { findRetiredLayout, refuseRetiredLayout } from './old-layouts.js';
import { createEventNotifier } from './postgres/event-notifier.js';
import { createOperatorTokenStore, openTeamDatabase, type OperatorTokenStore } from './postgres/index.js';
import { createPostgresLimitStore } from './postgres/limit-store.js';
import { openPostgresAccountStores } from './postgres/accounts/index.js';
import { createSealer } from './sealer.js';
import type { Stores } from './types.js';

/** Whether a presented bearer value is one of team mode's registered operator tokens. */
export type OperatorTokenCheck = (presented: string) => Promise<boolean>;

/** Where one daemon keeps everything: its data folder (the JSON store) or team mode's database. */
export interface DaemonStorage {
  secrets: Secrets;
  stores: Stores;
  runtimes: RuntimeStorage;
  /** Shared pairings in team mode; absent, the pairing routes keep them in memory. */
  pairings?: PairingStore;
  /** Team mode: every operator token registered in the database is accepted (operator-tokens.ts). */
  checkOperatorToken?: OperatorTokenCheck;
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
  // Before the secrets are made: a folder this release does not read is left exactly as it was.
  refuseRetiredLayout(findRetiredLayout(config.dataDir));
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
    const operatorTokens = createOperatorTokenStore(db.pool);
    const operatorToken = await keepOperatorToken(operatorTokens, config.dataDir, deps.log);
    return {
      secrets: { ...secrets, operatorToken },
      stores,
      runtimes: { kind: 'postgres', pool: db.pool, notifier },
      pairings: createPostgresPairingStore(db.pool),
      checkOperatorToken: operatorTokens.check,
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
 * This daemon's operator token, in its data folder (0600, in a 0700 folder) so that `svc mail` and
 * `svc admin` on its machine find it as they do for a local daemon; the database holds only its
 * hash. The token already there is kept while its hash is registered; one whose row was deleted
 * (a revocation) is replaced by a fresh one. A plaintext token an older svc left in svc_secrets
 * becomes a hash, and the daemon that moved it keeps it here, so the token operators use stays valid.
 */
async function keepOperatorToken(tokens: OperatorTokenStore, dataDir: string, log: Logger): Promise<string> {
  const file = join(dataDir, dataFiles.operatorToken);
  const label = `${hostname()}:${resolve(dataDir)}`;
  const adopted = await tokens.adoptPlaintext(label);
  if (adopted) {
    writeFileSync(file, `${adopted}\n`, { mode: 0o600 });
    log.info('the operator token is now stored hashed in the database; its plaintext is only in this file', { file });
    return adopted;
  }
  const kept = readTokenFile(file);
  if (kept && (await tokens.isRegistered(kept))) return kept;
  const token = `op_${randomBytes(32).toString('base64url')}`;
  await tokens.register(token, label);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  log.info(
    kept
      ? 'the operator token in this data folder is no longer registered (revoked): a new one was written'
      : 'operator token written',
    { file },
  );
  return token;
}

function readTokenFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
