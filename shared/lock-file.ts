import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonLock } from './wire.js';
import { dataFiles } from './paths.js';

/**
 * Reading a data folder's lock file: the CLI finds a running daemon's pid and URL here without
 * loading any daemon code (taking and releasing the lock stays in daemon/lock.ts).
 */
export function readLock(dir: string): DaemonLock | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, dataFiles.lock), 'utf8')) as DaemonLock;
    return typeof parsed.pid === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

/** Where the folder's daemon last listened (written at each start, kept after it stops); null if it never ran. */
export function readLastUrl(dir: string): string | null {
  try {
    return readFileSync(join(dir, dataFiles.lastUrl), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
