import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles } from '../../shared/paths.js';
import { VERSION } from '../../shared/version.js';
import { acquireLock, DataDirLocked, type HeldLock } from '../lock.js';
import { headerFor } from './archive-format.js';
import { EVENTS, type ArchiveRecord } from './archive-tables.js';
import { createArchiveWriter } from './archive-writer.js';
import { readDataFolder } from './folder-source.js';
import { readPostgres } from './postgres-source.js';
import { daemonRunningMessage, describe, type Store, type TransferSummary } from './store-ref.js';
import { basename } from 'node:path';
import { openFileAuditStore } from '../store/audit/file-audit.js';
import { createPostgresAuditStore } from '../store/postgres/audit.js';
import { openDatabase } from '../store/postgres/connect.js';
import type { AuditStore } from '../store/audit-types.js';
import { transferEntry } from './audit-transfer.js';

/**
 * `svc admin export`: everything a store holds into one archive file. A data folder is read under
 * its daemon lock: a running daemon is refused (its files are changing), and no daemon can start
 * on the folder until the export is done. A database is read in one snapshot transaction, so
 * daemons may keep running (the archive is the state at the moment the export began).
 */
export async function exportArchive(from: Store, out: string, nowMs = Date.now()): Promise<TransferSummary> {
  if (from.kind === 'data-folder') {
    if (!existsSync(join(from.dir, 'accounts')) && !existsSync(join(from.dir, dataFiles.jwtSecret)))
      throw new Error(`there is no svc data folder at ${from.dir} (no accounts/ and no jwt-secret in it)`);
    const lock = lockFolder(from.dir);
    try {
      await recordExport(await openFileAuditStore(from.dir), out, nowMs);
      return await write(readDataFolder(from.dir), from, out, nowMs);
    } finally {
      lock.release();
    }
  }
  const db = await openDatabase(from.url, { max: 1 });
  try {
    await recordExport(createPostgresAuditStore(db.pool), out, nowMs);
  } finally {
    await db.close();
  }
  return write(readPostgres(from.url), from, out, nowMs);
}

/** The export is an entry of the trail it exports (so the archive holds it too): who, when, to which file. */
async function recordExport(audit: AuditStore, out: string, nowMs: number): Promise<void> {
  try {
    await audit.append(transferEntry('operator.export', new Date(nowMs).toISOString(), { file: basename(out) }));
  } finally {
    await audit.close();
  }
}

/** The daemon's own lock: no daemon runs on the folder now, and none can start until the export is done. */
function lockFolder(dir: string): HeldLock {
  try {
    return acquireLock(dir, VERSION);
  } catch (err) {
    if (err instanceof DataDirLocked) throw new Error(daemonRunningMessage(dir, err.holder.pid, 'export'));
    throw err;
  }
}

async function write(
  records: AsyncIterable<ArchiveRecord>,
  from: Store,
  out: string,
  nowMs: number,
): Promise<TransferSummary> {
  const writer = createArchiveWriter(out, headerFor(from.kind, nowMs));
  const companies = new Set<string>();
  let events = 0;
  try {
    for await (const r of records) {
      writer.add(r);
      if (r.company) companies.add(r.company);
      if (r.table === EVENTS) events++;
    }
    const count = writer.finish();
    return { records: count, companies: companies.size, events, store: describe(from), file: out };
  } catch (err) {
    writer.abort();
    throw err;
  }
}
