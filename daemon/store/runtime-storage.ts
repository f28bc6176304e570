import { rmSync } from 'node:fs';
import type pg from 'pg';
import type { Clock } from '../clock.js';
import { createMemoryEventLog, openEventLog } from './event-log/index.js';
import type { EventLog } from './event-log/types.js';
import type { RuntimeStores } from './runtime-types.js';
import { openRuntimeStores } from './runtime/open.js';
import { openPostgresEventLog } from './postgres/event-log.js';
import type { EventNotifier } from './postgres/event-notifier.js';
import { createPostgresRuntimeStores } from './postgres/runtime/index.js';
import { deletePostgresRuntime } from './postgres/runtime/discard.js';

/**
 * Where a Company runtime keeps its records and its event log: in memory (tests), in the Company's
 * data folder (the JSON store), or in the shared PostgreSQL tables of team mode, where every daemon
 * on the database opens the same Company onto the same rows.
 */
export type RuntimeStorage = 'memory' | 'file' | TeamRuntimeStorage;

export interface TeamRuntimeStorage {
  kind: 'postgres';
  pool: pg.Pool;
  /** The daemon's one LISTEN connection: wakes followers here when another daemon appends. */
  notifier: EventNotifier;
}

export interface OpenedStorage {
  stores: RuntimeStores;
  log: EventLog;
  /**
   * Calls `wake` whenever another process appends to this Company's log (team mode only; with a
   * data folder this daemon is the only writer, and the events service wakes its own listeners).
   * The events service watches only while something here follows the log. Returns an unwatch.
   */
  watch?: (wake: (lastId: string) => void) => () => void;
  /** Lines for the daemon log (journal recovery, an upgrade import, event log recovery). */
  notes: string[];
  recovery: string[];
}

export async function openRuntimeStorage(
  storage: RuntimeStorage,
  companyId: string,
  dir: string,
  clock: Clock,
): Promise<OpenedStorage> {
  if (typeof storage === 'object') {
    const log = openPostgresEventLog({ pool: storage.pool, notifier: storage.notifier, company: companyId, clock });
    return {
      stores: createPostgresRuntimeStores(storage.pool, companyId),
      log,
      watch: (wake) => log.subscribe(wake),
      notes: [],
      recovery: [],
    };
  }
  const opened = await openRuntimeStores(storage, dir, {});
  try {
    const log = storage === 'file' ? await openEventLog(dir, { clock }) : createMemoryEventLog({ clock });
    return { stores: opened.stores, log, notes: opened.notes, recovery: log.recovery };
  } catch (err) {
    await opened.stores.close();
    throw err;
  }
}

/** Deletes a deleted Company's runtime where it is kept: its data folder, or its rows in team mode. Close it first. */
export async function discardRuntimeStorage(storage: RuntimeStorage, companyId: string, dir: string): Promise<void> {
  if (typeof storage === 'object') return deletePostgresRuntime(storage.pool, companyId);
  if (storage === 'file') rmSync(dir, { recursive: true, force: true });
}
