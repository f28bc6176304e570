import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../disk/atomic-file.js';
import { segmentName } from '../disk/segment-io.js';

/**
 * Data folders written by the journal's first step (one file `<name>.jsonl`, a JSON array of
 * changes per line) open in the segment layout: the lines become the first segment of
 * `<name>/` (written aside, synced, renamed), and only then is the old file renamed to
 * `<name>.jsonl.pre-segments` (a backup; never read again). A crash between the two steps leaves
 * the segment in place, and the next open only renames. Returns a note for `recovery`, or null.
 */
export function importFirstStepFile(dir: string, name: string): string | null {
  const old = join(dir, `${name}.jsonl`);
  if (!existsSync(old)) return null;
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  let imported = 0;
  if (readdirSync(folder).every((file) => file.endsWith('.tmp'))) {
    const entries: string[] = [];
    for (const line of readFileSync(old, 'utf8').split('\n')) {
      let changes: unknown;
      try {
        changes = JSON.parse(line);
      } catch {
        continue; // an empty or torn line: never acknowledged
      }
      if (Array.isArray(changes)) entries.push(JSON.stringify({ seq: entries.length + 1, changes }) + '\n');
    }
    writeFileAtomicSync(folder, segmentName(1), [Buffer.from(entries.join(''))]);
    imported = entries.length;
  }
  renameSync(old, `${old}.pre-segments`);
  return `${name}.jsonl: moved into ${name}/ (${imported} writes); the old file is kept as ${name}.jsonl.pre-segments`;
}
