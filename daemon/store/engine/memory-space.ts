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
    const table = new TableState<T>(spec, (name, id) => this.damaged(name, id));
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
    const undo = this.apply(changes);
    return this.persist(changes, undo).then(() => result);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.flush();
  }

  /**
   * Makes applied changes durable; the memory backend has nothing to do. A backend that cannot
   * must apply `undo` (the changes that take them back) before it rejects, so memory never holds
   * what the disk does not.
   */
  protected persist(_changes: Change[], _undo: Change[]): Promise<void> {
    return Promise.resolve();
  }

  /** A stored record that no longer parses was left out (the journal backend reports it). */
  protected damaged(_table: string, _id: string): void {}

  /** Applies the changes; returns what takes them back (newest first). */
  protected apply(changes: Change[]): Change[] {
    const undo: Change[] = [];
    for (const c of changes) {
      const table = this.tables.get(c.table)!;
      const id = c.op === 'put' ? table.spec.id(c.record) : c.id;
      const before = table.get(id);
      undo.push(before ? { table: c.table, op: 'put', record: before } : { table: c.table, op: 'remove', id });
      if (c.op === 'put') table.put(c.record);
      else table.remove(c.id);
    }
    return undo.reverse();
  }

  private own(table: Table<object>): string {
    if (this.tables.get(table.name) !== table) throw new Error(`table ${table.name} belongs to another space`);
    return table.name;
  }
}

export function createMemorySpace(): Space {
  return new MemorySpace();
}
