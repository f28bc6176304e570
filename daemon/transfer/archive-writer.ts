import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { syncFolder } from '../store/disk/segment-io.js';
import { ARCHIVE_FORMAT, type ArchiveHeader } from './archive-format.js';
import type { ArchiveRecord } from './archive-tables.js';

export interface ArchiveWriter {
  add(record: ArchiveRecord): void;
  /** Writes the closing line, syncs, and puts the file in place; returns how many records it holds. */
  finish(): number;
  /** Removes the partial file (an export that failed leaves nothing that looks like an archive). */
  abort(): void;
}

const FLUSH_BYTES = 1 << 20;

/**
 * Writes an archive to `<file>.partial` (mode 0600 from the first byte: it holds the deployment's
 * secrets and every password hash), then renames it into place once complete and synced, so a
 * file with the archive's name is always a whole archive. An existing file is never overwritten.
 */
export function createArchiveWriter(file: string, header: Omit<ArchiveHeader, 'svc_archive'>): ArchiveWriter {
  if (existsSync(file)) throw new Error(`${file} already exists: choose another file or remove it first`);
  const partial = `${file}.partial`;
  const fd = openPartial(partial);
  const hash = createHash('sha256');
  let pending = '';
  let records = 0;
  let open = true;
  const flush = () => {
    if (pending.length > 0) writeSync(fd, pending);
    pending = '';
  };
  const line = (value: unknown, hashed: boolean) => {
    const text = `${JSON.stringify(value)}\n`;
    if (hashed) hash.update(text);
    pending += text;
    if (pending.length >= FLUSH_BYTES) flush();
  };
  line({ svc_archive: ARCHIVE_FORMAT, ...header }, true);
  return {
    add(record) {
      line({ table: record.table, company: record.company, record: record.record }, true);
      records++;
    },
    finish() {
      line({ end: true, records, sha256: hash.digest('hex') }, false);
      flush();
      fsyncSync(fd);
      closeSync(fd);
      open = false;
      renameSync(partial, file);
      syncFolder(dirname(file));
      return records;
    },
    abort() {
      if (open) closeSync(fd);
      open = false;
      rmSync(partial, { force: true });
    },
  };
}

function openPartial(partial: string): number {
  try {
    return openSync(partial, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new Error(
      `${partial} is in the way (an export that was stopped half-way left it): remove it, then export again`,
    );
  }
}
