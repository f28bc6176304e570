import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { processIsAlive, readLock } from '../lock.js';
import { syncFolder } from '../store/disk/segment-io.js';
import { checkArchive } from './archive-check.js';
import { readArchive } from './archive-reader.js';
import { writeDataFolder } from './folder-target.js';
import { writePostgres } from './postgres-target.js';
import { daemonRunningMessage, describe, type Store, type TransferSummary } from './store-ref.js';
import { transferEntry } from './audit-transfer.js';

/**
 * `svc admin import`: an archive into an EMPTY store, all or nothing. The whole archive is read
 * and checked first (format, every line, the checksum), so a damaged file changes nothing.
 * - A data folder is built aside, in `.<name>.importing-<pid>` next to it, and renamed into place
 *   only when complete and synced: a crash leaves the target as it was and that folder (named as
 *   what it is), which the next import into the same target removes. A failure removes it.
 * - A database gets everything in one transaction (postgres-target.ts).
 */
export async function importArchive(file: string, to: Store, nowMs = Date.now()): Promise<TransferSummary> {
  if (to.kind === 'data-folder') refuseNonEmptyFolder(to.dir);
  const summary = await checkArchive(file);
  // The import is the new store's last entry, chained after the archive's (docs/audit.md).
  const own = transferEntry('operator.import', new Date(nowMs).toISOString(), {
    file: basename(file),
    source: summary.header.source,
    exported_at: summary.header.created_at,
    svc_version: summary.header.svc_version,
    records: summary.records,
  });
  const done = {
    records: summary.records,
    companies: summary.companies,
    events: summary.events,
    store: describe(to),
    file,
  };
  if (to.kind === 'postgres') {
    await writePostgres(to.url, () => readArchive(file), own);
    return done;
  }
  const target = resolve(to.dir);
  const staging = join(dirname(target), `.${basename(target)}.importing-${process.pid}`);
  removeCrashedStaging(target);
  rmSync(staging, { recursive: true, force: true });
  try {
    await writeDataFolder(staging, readArchive(file), own);
    // Checked again: a daemon may have started on the folder while the import ran.
    refuseNonEmptyFolder(target);
    // rename(2) puts a folder in place of a missing or empty one in one step.
    renameSync(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  syncFolder(dirname(target));
  return done;
}

/**
 * A crash (or kill -9) of an earlier import into the same target left its staging folder behind:
 * its process is gone, so nothing will finish it. One still running (another import racing this
 * one) is left alone; the target's own emptiness check settles that race.
 */
function removeCrashedStaging(target: string): void {
  const prefix = `.${basename(target)}.importing-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return; // no parent folder yet: nothing left over, and writeDataFolder creates it
  }
  for (const name of names) {
    const pid =
      name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)) ? Number(name.slice(prefix.length)) : 0;
    if (pid && pid !== process.pid && !processIsAlive(pid))
      rmSync(join(dirname(target), name), { recursive: true, force: true });
  }
}

function refuseNonEmptyFolder(dir: string): void {
  if (!existsSync(dir)) return;
  const lock = readLock(dir);
  if (lock && processIsAlive(lock.pid)) throw new Error(daemonRunningMessage(dir, lock.pid, 'import'));
  if (readdirSync(dir).length > 0)
    throw new Error(`the data folder ${dir} is not empty: import only into a new or empty folder`);
}
