import { closeSync, fdatasync, ftruncate, fsyncSync, openSync, readdirSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The three disk operations the writer awaits, behind a seam so tests can count syncs (group
 * commit) and make a write fail without a real broken disk. The sync goes through libuv's
 * thread pool, so the event loop keeps taking appends — which join the next batch — while a
 * batch's sync is in flight.
 */
export interface SegmentIo {
  /** Writes all of `data` at `position`. */
  write(fd: number, data: Buffer, position: number): Promise<void>;
  /** Makes what was written durable. fdatasync: it also flushes the new file size, which an append needs. */
  sync(fd: number): Promise<void>;
  truncate(fd: number, size: number): Promise<void>;
}

export const nodeSegmentIo: SegmentIo = {
  // The write itself only copies the batch into the page cache (microseconds), so it is done
  // right here: a trip through the thread pool would cost more, on a busy machine much more,
  // than it saves. The sync is the slow part, and that one runs off the event loop.
  async write(fd, data, position) {
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
  },
  sync: (fd) => new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve()))),
  truncate: (fd, size) =>
    new Promise((resolve, reject) => ftruncate(fd, size, (err) => (err ? reject(err) : resolve()))),
};

export const segmentName = (n: number): string => `${String(n).padStart(6, '0')}.jsonl`;

/** Segment numbers present in the folder, ascending. */
export function listSegments(eventsDir: string): number[] {
  return readdirSync(eventsDir)
    .map((name) => /^(\d+)\.jsonl$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** A new file's name is only durable once its folder is synced: without this a crash could lose a whole acknowledged segment. */
export function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The same through the thread pool: on a busy disk a folder sync can take tens of ms, too long to hold the event loop while serving. */
export async function syncFolderAsync(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export const segmentPath = (eventsDir: string, n: number): string => join(eventsDir, segmentName(n));
