import type { TableSpec } from '../../daemon/store/engine/types.js';
import { openJournalSpace } from '../../daemon/store/journal/index.js';

/**
 * The rows of one table of a data folder's accounts journal, as a restart would read them: for
 * tests that check what reached the disk. Opens the journal on its own and closes it again.
 */
export async function readAccountRows<T extends object>(dataDir: string, spec: TableSpec<T>): Promise<T[]> {
  const space = await openJournalSpace(dataDir, { name: 'accounts' });
  try {
    return [...space.define(spec).all()];
  } finally {
    await space.close();
  }
}
