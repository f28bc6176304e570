import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TableSpec } from '../../daemon/store/engine/types.js';
import { openJournalSpace } from '../../daemon/store/journal/index.js';
import { copyInCrashOrder } from './crash-copy.js';
import { tempDir } from './temp-dir.js';

/**
 * The rows of some tables of a data folder's accounts journal, as a restart would read them: for
 * tests that check what reached the disk. Read from a copy, because an open recovers what it finds
 * (cuts a torn last line, removes a snapshot's .tmp): on the files of a daemon still writing, that
 * would cut a line its write had not finished.
 */
export async function readAccountTables(dataDir: string, specs: readonly TableSpec<object>[]): Promise<unknown[][]> {
  const copy = tempDir('svc-accounts-copy');
  copyInCrashOrder(join(dataDir, 'accounts'), join(copy, 'accounts'));
  const space = await openJournalSpace(copy, { name: 'accounts' });
  try {
    return specs.map((spec) => [...space.define(spec).all()]);
  } finally {
    await space.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The rows of one table of a data folder's accounts journal (readAccountTables). */
export async function readAccountRows<T extends object>(dataDir: string, spec: TableSpec<T>): Promise<T[]> {
  const [rows] = await readAccountTables(dataDir, [spec as TableSpec<object>]);
  return rows as T[];
}
