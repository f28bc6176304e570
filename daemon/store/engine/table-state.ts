import { type Bucket, deepFreeze, drop, keysOf } from './buckets.js';
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
  // A key held by one record maps to its id; only a shared key gets a bucket. Most keys (e-mail,
  // token hash, session id) are unique, and 100,000 one-element Sets cost more time and memory than the records.
  private readonly indexes = new Map<string, { keyOf: (r: T) => IndexKey; byKey: Map<string, Bucket> }>();
  /**
   * When each record was first put: lookups answer in this order, whatever was replaced since.
   * Records loaded from disk have no entry until one is needed (`orderOf`): their order is the
   * table's own (a Map keeps insertion order, and a replaced record keeps its place), so a start
   * does not fill 200,000 entries that most tables (unique keys) never read.
   */
  private firstPut = new Map<string, number>();
  private puts = 0;
  /** Loaded records without an entry in `firstPut` (orders 1…loaded, before every later put). */
  private unordered = false;

  constructor(
    readonly spec: TableSpec<T>,
    /** Told of a stored record whose JSON no longer parses: it is left out, as a damaged line is at open. */
    private readonly onDamaged: (table: string, id: string) => void = () => {},
  ) {
    this.name = spec.name;
    for (const [name, keyOf] of Object.entries(spec.indexes ?? {})) this.indexes.set(name, { keyOf, byKey: new Map() });
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): T | undefined {
    const value = this.records.get(id);
    return typeof value === 'number' ? this.materialize(id, value) : value;
  }

  lookup(index: string, key: string): T[] {
    const ids = this.ids(index, key);
    if (!ids) return [];
    const out: T[] = [];
    for (const id of ids) {
      const record = this.get(id);
      if (record) out.push(record);
    }
    return out;
  }

  first(index: string, key: string): T | undefined {
    const ids = this.ids(index, key);
    if (!ids) return undefined;
    for (const id of ids) {
      const record = this.get(id);
      if (record) return record;
    }
    return undefined;
  }

  count(index: string, key: string): number {
    const bucket = this.index(index).get(key);
    return bucket === undefined ? 0 : typeof bucket === 'string' ? 1 : bucket.ids.size;
  }

  *all(): IterableIterator<T> {
    for (const [id, value] of this.records) {
      const record = typeof value === 'number' ? this.materialize(id, value) : value;
      if (record) yield record;
    }
  }

  /** Every record as held: a frozen record, or the position of its stored line not read yet (a snapshot copies that line). */
  held(): IterableIterator<[string, T | number]> {
    return this.records.entries();
  }

  /** Inserts or replaces a record (frozen, so nobody edits it behind the engine's back). */
  put(record: T): void {
    const id = this.spec.id(record);
    const old = this.get(id);
    const frozen = deepFreeze(record);
    this.records.set(id, frozen);
    if (!old) this.firstPut.set(id, ++this.puts);
    for (const { keyOf, byKey } of this.indexes.values()) {
      const before = old ? keysOf(keyOf(old)) : [];
      const after = keysOf(keyOf(frozen));
      // A key the record keeps keeps its place: replacing a record does not reorder its lookups.
      for (const key of before) if (!after.includes(key)) drop(byKey, key, id);
      for (const key of after) if (!before.includes(key)) this.file(byKey, key, id);
    }
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
    const indexes = [...this.indexes.values()];
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
      if (record) {
        // A record whose id the spec computes differently (the spec changed) is put under the right one below.
        if (this.spec.id(record) !== id) {
          misfiled.push([id, record]);
          continue;
        }
        deepFreeze(record);
      }
      const order = ++this.puts;
      for (let i = 0; i < indexes.length; i++) {
        const { keyOf, byKey } = indexes[i]!;
        const key = keys ? keys[i] : keyOf(record!);
        if (typeof key === 'string') this.file(byKey, key, id, order);
        else if (key) for (const k of key) this.file(byKey, k, id, order);
      }
    }
    this.records = stored;
    this.unordered = this.puts > 0;
    for (const id of damaged) stored.delete(id);
    for (const [id] of misfiled) stored.delete(id);
    for (const [, record] of misfiled) this.put(record);
  }

  remove(id: string): void {
    const old = this.get(id);
    if (!old) return;
    for (const { keyOf, byKey } of this.indexes.values()) for (const key of keysOf(keyOf(old))) drop(byKey, key, id);
    this.records.delete(id);
    this.firstPut.delete(id);
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
    const keys = readStoredHead(line, 0, line.length, null)?.keys ?? [];
    let i = 0;
    for (const { byKey } of this.indexes.values()) for (const key of keysOf(keys[i++])) drop(byKey, key, id);
    this.records.delete(id);
    this.firstPut.delete(id);
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

  /**
   * Files `id` under `key`. `order` is given when the caller knows it is the newest put (loading,
   * a new record): no lookup then. A record that moves into a shared key otherwise needs the orders.
   */
  private file(byKey: Map<string, Bucket>, key: string, id: string, order?: number): void {
    const bucket = byKey.get(key);
    if (bucket === undefined) return void byKey.set(key, id);
    const newest = order ?? (this.firstPut.get(id) === this.puts ? this.puts : undefined);
    if (typeof bucket === 'string') {
      if (bucket === id) return;
      // The newest put comes after any other record: no need to know the other's order.
      const mine = newest ?? this.orderOf(id);
      const other = newest === undefined ? this.orderOf(bucket) : 0;
      byKey.set(key, {
        ids: new Set(other < mine ? [bucket, id] : [id, bucket]),
        last: Math.max(other, mine),
        sorted: true,
      });
      return;
    }
    bucket.ids.add(id);
    const mine = newest ?? this.orderOf(id);
    // A record that moved into this key lands last; the bucket is re-sorted on its next read.
    if (mine < bucket.last) bucket.sorted = false;
    else bucket.last = mine;
  }

  /**
   * A record's first-put order. Loaded records get theirs on the first need, all at once, from the
   * table's own order (they precede every later put, whose orders are above `loaded`): numbered
   * from 1 again, so a bucket's `last` may read high, which only costs a re-sort, never a wrong order.
   */
  private orderOf(id: string): number {
    const known = this.firstPut.get(id);
    if (known !== undefined || !this.unordered) return known ?? 0;
    const orders = new Map<string, number>();
    let n = 0;
    for (const key of this.records.keys()) orders.set(key, this.firstPut.get(key) ?? ++n);
    this.firstPut = orders;
    this.unordered = false;
    return orders.get(id) ?? 0;
  }

  /** The ids under `key`, in first-put order. */
  private ids(index: string, key: string): Iterable<string> | undefined {
    const bucket = this.index(index).get(key);
    if (typeof bucket === 'string') return [bucket];
    if (bucket && !bucket.sorted) {
      bucket.ids = new Set([...bucket.ids].sort((a, b) => this.orderOf(a) - this.orderOf(b)));
      bucket.sorted = true;
    }
    return bucket?.ids;
  }

  private index(name: string): Map<string, Bucket> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`table ${this.name} has no index ${name}`);
    return index.byKey;
  }
}
