import { closeSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonLock } from '../shared/wire.js';
import { processIsAlive, readLock } from '../shared/lock-file.js';
import { dataFiles } from '../shared/paths.js';

export class DataDirLocked extends Error {
  constructor(
    readonly holder: DaemonLock,
    dir: string,
  ) {
    super(
      `another svc daemon (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}) is using the data folder ${dir}; ` +
        `stop it with 'svc daemon stop' or choose another folder with --data`,
    );
    this.name = 'DataDirLocked';
  }
}

export interface HeldLock {
  /** Records where the daemon listens, once the port is known. */
  update(url: string): void;
  release(): void;
}

/**
 * One daemon per data folder. The lock file is created exclusively; when it names a process that
 * is gone (kill -9, a crash), the stale lock is moved aside and taken over.
 */
export function acquireLock(
  dir: string,
  version: string,
  isAlive: (pid: number) => boolean = processIsAlive,
): HeldLock {
  const file = join(dir, dataFiles.lock);
  const record: DaemonLock = { pid: process.pid, url: null, started_at: new Date().toISOString(), version };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeFileSync(fd, JSON.stringify(record));
      closeSync(fd);
      return {
        update(url) {
          record.url = url;
          writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
          writeFileSync(join(dir, dataFiles.lastUrl), `${url}\n`, { mode: 0o600 });
        },
        release() {
          const current = readLock(dir);
          if (current?.pid === process.pid) unlinkSync(file);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(dir);
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirLocked(holder, dir);
    // Stale (or unreadable): move it aside rather than unlink, so a racing starter cannot delete a fresh lock.
    try {
      renameSync(file, `${file}.stale-${process.pid}`);
      unlinkSync(`${file}.stale-${process.pid}`);
    } catch {
      // someone else took it over first; loop and look again
    }
  }
  const holder = readLock(dir);
  throw new DataDirLocked(holder ?? { pid: 0, url: null, started_at: '', version: '' }, dir);
}

export { processIsAlive, readLock } from '../shared/lock-file.js';
