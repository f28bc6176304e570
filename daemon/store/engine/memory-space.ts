import { TableState } from './table-state.js';
import type { Space, Table, TableSpec, Tx } from './types.js';

export type Change = { table: string; op: 'put'; record: object } | { table: string; op: 'remove'; id: string };

/**
 * The in-memory backend, and the part every backend shares: tables, and a write that buffers its
 * changes, applies them only when `fn` returned, then asks `persist` to make them durable.
 */
export class MemorySpace implements Space {
  protected readonly tables = new Map<string, TableState<object>>();

  define<T extends object>(spec: TableSpec<T>): Table<T> {
    const existing = this.tables.get(spec.name);
    if (existing) return existing as unknown as Table<T>;
    const table = new TableState<T>(spec);
    this.tables.set(spec.name, table as unknown as TableState<object>);
    return table;
  }

  write<R>(fn: (tx: Tx) => R): Promise<R> {
    let changes: Change[];
    let result: R;
    try {
      changes = [];
      const buffered = changes;
      result = fn({
        put: (table, record) => void buffered.push({ table: this.own(table), op: 'put', record }),
        remove: (table, id) => void buffered.push({ table: this.own(table), op: 'remove', id }),
      });
    } catch (err) {
      return Promise.reject(err);
    }
    if (changes.length === 0) return Promise.resolve(result);
    this.apply(changes);
    return this.persist(changes).then(() => result);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.flush();
  }

  /** Makes applied changes durable; the memory backend has nothing to do. */
  protected persist(_changes: Change[]): Promise<void> {
    return Promise.resolve();
  }

  protected apply(changes: Change[]): void {
    for (const c of changes) {
      const table = this.tables.get(c.table)!;
      if (c.op === 'put') table.put(c.record);
      else table.remove(c.id);
    }
  }

  private own(table: Table<object>): string {
    if (this.tables.get(table.name) !== table) throw new Error(`table ${table.name} belongs to another space`);
    return table.name;
  }
}

export function createMemorySpace(): Space {
  return new MemorySpace();
}
