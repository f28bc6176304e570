import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { encodeLine, fingerprintOf } from '../../daemon/store/engine/record-text.js';
import type { TableSpec } from '../../daemon/store/engine/types.js';
import { endLine, headerLine, recordLine, SNAPSHOT_FILE } from '../../daemon/store/journal/snapshot-file.js';

export interface SeedTable<T extends object> {
  /** The table's name as the store defines it. */
  name: string;
  count: number;
  /** The i-th synthetic record. */
  record(i: number): T;
  id(record: T): string;
  /** With the table's spec, lines carry their index keys as the daemon writes them; without, the older format. */
  spec?: TableSpec<T>;
}

/**
 * Writes a journal space `<dir>/<name>/` holding `count` synthetic records per table, as a clean
 * close would leave it (one snapshot, no journal), without going through the stores or HTTP:
 * 100,000 records take well under a second. `openJournalSpace(dir, { name })` then opens it as any
 * other. Reusable by whole-daemon cases: seed `accounts` (or a Company's `runtime`) with the
 * stores' own table names and record shapes before starting the daemon.
 */
export function seedJournal(dir: string, name: string, tables: SeedTable<object>[]): void {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const fd = openSync(join(folder, SNAPSHOT_FILE), 'w', 0o600);
  try {
    const counts = Object.fromEntries(tables.map((t) => [t.name, t.count]));
    const keys = Object.fromEntries(tables.flatMap((t) => (t.spec ? [[t.name, fingerprintOf(t.spec)]] : [])));
    let lines = [headerLine(1, 0, counts, keys)];
    let total = 0;
    const flush = () => {
      writeSync(fd, lines.join('\n') + '\n');
      lines = [];
    };
    for (const table of tables) {
      for (let i = 0; i < table.count; i++) {
        const record = table.record(i);
        const id = table.id(record);
        lines.push(table.spec ? encodeLine(table.spec, id, record) : recordLine(table.name, id, record));
        if (lines.length >= 10_000) flush();
      }
      total += table.count;
    }
    lines.push(endLine(total));
    flush();
  } finally {
    closeSync(fd);
  }
}
