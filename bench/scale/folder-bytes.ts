import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes of every file under `dir`: before and after N calls, what they wrote (journal lines, events). */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
