import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder, syncFolderAsync } from './segment-io.js';

/**
 * Files replaced whole (snapshots) are written aside as `<name>.tmp`, synced, renamed into place
 * and the folder synced: a crash at any instant leaves either the old file or the new one, never
 * half of one, and at worst a `.tmp` that the next open removes.
 */
export function writeFileAtomicSync(dir: string, name: string, chunks: Buffer[]): void {
  const tmp = join(dir, `${name}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    for (const chunk of chunks) {
      let done = 0;
      while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, name));
  syncFolder(dir);
}

/** The same, written a piece at a time (each write goes through the thread pool, off the event loop). */
export class AtomicFileWriter {
  /** Bytes written so far. */
  size = 0;

  private constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(dir: string, name: string): Promise<AtomicFileWriter> {
    return new AtomicFileWriter(dir, name, await open(join(dir, `${name}.tmp`), 'w', 0o600));
  }

  async write(data: Buffer): Promise<void> {
    let done = 0;
    while (done < data.length) done += (await this.handle.write(data, done, data.length - done)).bytesWritten;
    this.size += data.length;
  }

  /** Syncs the temp file and puts it in place. */
  async commit(): Promise<void> {
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    await rename(join(this.dir, `${this.name}.tmp`), join(this.dir, this.name));
    await syncFolderAsync(this.dir);
  }

  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(join(this.dir, `${this.name}.tmp`), { force: true });
  }
}

/** Removes what a crash mid-write left behind: a `.tmp` is never the only copy of anything. */
export function removeTempFiles(dir: string): string[] {
  const removed = readdirSync(dir).filter((name) => name.endsWith('.tmp'));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}
