import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every byte a journal space keeps on disk (`<dir>/<name>/`: its snapshot and segments), as text: for tests that grep what reached the disk. */
export function readJournalText(dir: string, name: string): string {
  const folder = join(dir, name);
  return readdirSync(folder)
    .sort()
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('');
}
