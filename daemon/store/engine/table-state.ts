import { deepFreeze } from './buckets.js';
import { KeyIndexes } from './key-indexes.js';
import { parseStoredRecord, readStoredHead } from './record-text.js';
import type { IndexKey, StoredLines, Table, TableSpec } from './types.js';

/**
 * One table's records and indexes in memory, shared by every backend of the engine. Lookups are
 * O(1) by id and by index key; a put or a remove costs what it changes, never what is stored.
 * A record loaded from a snapshot may still be unread: held as its line's position in `source` (a
 * number, see record-text.ts), it is read, parsed and frozen the first time it is used.
 */
export class TableState<T extends object> implements Table<T> {
  readonly name: string;
  private records = new Map<string, T | number>();
  private source: StoredLines | null = null;
  private readonly indexes: KeyIndexes<T>;

  constructor(
    readonly spec: TableSpec<T>,
    /** Told of a stored record whose JSON no longer parses: it is left out, as a damaged line is at open. */
    private readonly onDamaged: (table: string, id: string) => void = () => {},
  ) {
    this.name = spec.name;
    this.indexes = new KeyIndexes(spec.name, spec, () => this.records.keys());
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): T | undefined {
    const value = this.records.get(id);
    return typeof value === 'number' ? this.materialize(id, value) : value;
  }

  lookup(index: string, key: string): T[] {
    const out: T[] = [];
    for (const id of this.indexes.ids(index, key) ?? []) {
      const record = this.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  first(index: string, key: string): T | undefined {
    for (const id of this.indexes.ids(index, key) ?? []) {
      const record = this.get(id);
      if (record) return record;
    }
    return undefined;
  }

  count(index: string, key: string): number {
    return this.indexes.count(index, key);
  }

  *all(): IterableIterator<T> {
    for (const [id, value] of this.records) {
      const record = typeof value === 'number' ? this.materialize(id, value) : value;
      if (record) yield record;
    }
  }

  /**
   * Every record as held, for a snapshot: a frozen record, or the position of its stored line not
   * read yet (the snapshot copies that line). Native copies of the map's keys and values: a loop
   * over its entries, run once per snapshot and so never optimised, held the event loop ~10x longer.
   */
  held(): { ids: string[]; values: (T | number)[] } {
    return { ids: Array.from(this.records.keys()), values: Array.from(this.records.values()) };
  }

  /** Inserts or replaces a record (frozen, so nobody edits it behind the engine's back). */
  put(record: T): void {
    const id = this.spec.id(record);
    const old = this.get(id);
    const frozen = deepFreeze(record);
    this.records.set(id, frozen);
    this.indexes.put(id, old, frozen);
  }

  /**
   * Fills the table with records read from disk, keyed by their stored ids in first-put order (the
   * map is taken over, not copied). On an empty table this files them without what `put` does per
   * record to compare old and new keys. A record held unread (a number: its line in `source`) is
   * filed under the keys written on its line when `trusted` (the snapshot's key functions are
   * these) and stays unread; otherwise it is read and parsed now and its keys computed.
   */
  load(stored: Map<string, T | number>, source: StoredLines | null, trusted: boolean): void {
    this.source = source;
    if (this.records.size > 0) {
      for (const [id, value] of stored) {
        const record = typeof value === 'number' ? this.parseAt(id, value) : value;
        if (record) this.put(record);
      }
      return;
    }
    const misfiled: [string, T][] = [];
    const damaged: string[] = [];
    for (const [id, value] of stored) {
      let keys: IndexKey[] | null = null;
      let record: T | undefined;
      if (typeof value !== 'number') record = value;
      else if (trusted) keys = source!.takeKeys(value);
      else if ((record = this.parseAt(id, value))) stored.set(id, record);
      else {
        damaged.push(id);
        continue;
      }
      // A record whose id the spec computes differently (the spec changed) is put under the right one below.
      if (record && this.spec.id(record) !== id) {
        misfiled.push([id, record]);
        continue;
      }
      if (record) deepFreeze(record);
      this.indexes.load(id, keys, record);
    }
    this.records = stored;
    this.indexes.loaded();
    for (const id of damaged) stored.delete(id);
    for (const [id] of misfiled) stored.delete(id);
    for (const [, record] of misfiled) this.put(record);
  }

  remove(id: string): void {
    const old = this.get(id);
    if (!old) return;
    this.indexes.remove(id, old);
    this.records.delete(id);
  }

  /**
   * Reads an unread record on its first use. One whose line no longer parses (the file was damaged
   * after the start) is dropped with its index entries (read back from the line's head) and reported.
   */
  private materialize(id: string, position: number): T | undefined {
    const record = this.parseAt(id, position);
    if (record) {
      this.records.set(id, deepFreeze(record));
      return record;
    }
    const line = Buffer.from(this.source!.line(position));
    this.indexes.remove(id, undefined, readStoredHead(line, 0, line.length, null)?.keys);
    this.records.delete(id);
    return undefined;
  }

  /** The record of a stored line, or undefined (reported) when it does not parse. */
  private parseAt(id: string, position: number): T | undefined {
    try {
      return parseStoredRecord(this.source!.line(position)) as T;
    } catch {
      this.onDamaged(this.name, id);
      return undefined;
    }
  }
}
