import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/**
 * The files of a folder as a `kill -9` would leave them: copied while the space is still open.
 * A background snapshot may rename itself into place and delete the segments it covers while the
 * copy runs, so the segments are copied first (one already deleted is skipped) and the snapshot
 * files last: a segment missing from the copy was deleted after the new snapshot went in place,
 * so the snapshot copied after it covers it — as on the disk at any instant. A plain recursive
 * copy could pair the old snapshot with a segment deleted meanwhile (a state no crash leaves),
 * or fail on the vanished file (it did, on a loaded machine).
 */
export function crashCopy(dir: string): string {
  const copy = tempDir('journal-crash');
  copyInCrashOrder(dir, copy);
  return copy;
}

export function copyInCrashOrder(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const entries = readdirSync(from, { withFileTypes: true });
  const last = (name: string) => name.startsWith('snapshot');
  for (const entry of [...entries.filter((e) => !last(e.name)), ...entries.filter((e) => last(e.name))]) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyInCrashOrder(source, join(to, entry.name));
    else {
      try {
        copyFileSync(source, join(to, entry.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
}
