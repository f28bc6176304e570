import { type Dirent, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Removes the `*.tmp` files a crash left behind in the data folder and its sub-folders (Company
 * runtimes, event logs). Every durable write goes temp file → fsync → rename, so a `.tmp` is only
 * ever an unfinished write that no reader trusts; after a SIGKILL nothing else cleans them up and
 * they pile up (22 after 10 kills, up to 406 KB each). Called with the lock held, so no
 * other daemon is mid-write in this folder. Returns the paths removed.
 */
export function removeLeftoverTempFiles(dataDir: string, maxDepth = 6): string[] {
  const removed: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: nothing of ours to clean there
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < maxDepth) walk(path, depth + 1);
      else if (e.isFile() && e.name.endsWith('.tmp')) {
        try {
          unlinkSync(path);
          removed.push(path);
        } catch {
          // Already gone; anything else will be retried at the next start.
        }
      }
    }
  };
  walk(dataDir, 0);
  return removed;
}
