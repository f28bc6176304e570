import { TableState } from '../store/engine/table-state.js';
import type { Space, Table, TableSpec } from '../store/engine/types.js';

const BATCH = 1000;

/**
 * Puts archive records into a record space, a thousand to a write (one journal line each, so a
 * large import is a few writes, not one per record). Records keep their order, and with it the
 * first-put order every lookup answers in.
 */
export class SpaceLoader {
  private readonly tables = new Map<string, Table<object>>();
  private batch: Array<{ table: Table<object>; record: object }> = [];

  constructor(
    private readonly space: Space,
    specs: readonly TableSpec<object>[],
    prefix: string,
  ) {
    for (const spec of specs) this.tables.set(prefix + spec.name, space.define(spec));
  }

  /** Over tables already defined, by their names in the archive. */
  static overTables(space: Space, tables: ReadonlyMap<string, Table<object>>, prefix: string): SpaceLoader {
    const loader = new SpaceLoader(space, [], prefix);
    for (const [name, t] of tables) loader.tables.set(prefix + name, t);
    return loader;
  }

  async add(name: string, record: object): Promise<void> {
    const table = this.tables.get(name);
    if (!table) throw new Error(`no table ${name} in this space`);
    // A record without its key would be filed under "undefined": refuse it before it is written.
    const id = table instanceof TableState ? table.spec.id(record) : undefined;
    if (typeof id !== 'string' || id.length === 0) throw new Error(`a ${name} record has no id`);
    this.batch.push({ table, record });
    if (this.batch.length >= BATCH) await this.flush();
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.space.close();
    }
  }

  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    await this.space.write((tx) => {
      for (const { table, record } of batch) tx.put(table, record);
    });
  }
}
