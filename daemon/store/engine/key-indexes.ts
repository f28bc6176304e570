import { type Bucket, drop, keysOf } from './buckets.js';
import type { IndexKey, TableSpec } from './types.js';

/**
 * A table's secondary indexes: key → the ids filed under it, in the order their records were first
 * put. A key held by one record maps to its id; only a shared key gets a bucket. Most keys (e-mail,
 * token hash, session id) are unique, and 100,000 one-element Sets cost more time and memory than the records.
 */
export class KeyIndexes<T extends object> {
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
    private readonly table: string,
    spec: TableSpec<T>,
    /** The table's ids in its own (first-put) order. */
    private readonly tableIds: () => Iterable<string>,
  ) {
    for (const [name, keyOf] of Object.entries(spec.indexes ?? {})) this.indexes.set(name, { keyOf, byKey: new Map() });
  }

  /** Files a record put now: new (`old` undefined) or replacing `old`. */
  put(id: string, old: T | undefined, record: T): void {
    if (!old) this.firstPut.set(id, ++this.puts);
    for (const { keyOf, byKey } of this.indexes.values()) {
      const before = old ? keysOf(keyOf(old)) : [];
      const after = keysOf(keyOf(record));
      // A key the record keeps keeps its place: replacing a record does not reorder its lookups.
      for (const key of before) if (!after.includes(key)) drop(byKey, key, id);
      for (const key of after) if (!before.includes(key)) this.file(byKey, key, id);
    }
  }

  /** Files the next record read from disk: under `keys` (stored, in index order) or the keys of `record`. */
  load(id: string, keys: IndexKey[] | null, record: T | undefined): void {
    const order = ++this.puts;
    let i = 0;
    for (const { keyOf, byKey } of this.indexes.values()) {
      const key = keys ? keys[i++] : keyOf(record!);
      if (typeof key === 'string') this.file(byKey, key, id, order);
      else if (key) for (const k of key) this.file(byKey, k, id, order);
    }
  }

  /** Every record read from disk is filed: their orders are now implicit (see `firstPut`). */
  loaded(): void {
    this.unordered = this.puts > 0;
  }

  /** Takes a record out of every index: under the keys of `old`, or `keys` (stored, in index order). */
  remove(id: string, old: T | undefined, keys: IndexKey[] = []): void {
    let i = 0;
    for (const { keyOf, byKey } of this.indexes.values())
      for (const key of keysOf(old ? keyOf(old) : keys[i++])) drop(byKey, key, id);
    this.firstPut.delete(id);
  }

  count(index: string, key: string): number {
    const bucket = this.index(index).get(key);
    return bucket === undefined ? 0 : typeof bucket === 'string' ? 1 : bucket.ids.size;
  }

  /** The ids under `key`, in first-put order. */
  ids(index: string, key: string): Iterable<string> | undefined {
    const bucket = this.index(index).get(key);
    if (typeof bucket === 'string') return [bucket];
    if (bucket && !bucket.sorted) {
      bucket.ids = new Set([...bucket.ids].sort((a, b) => this.orderOf(a) - this.orderOf(b)));
      bucket.sorted = true;
    }
    return bucket?.ids;
  }

  /**
   * Files `id` under `key`. `order` is given when the caller knows it is the newest put (loading);
   * a new record is the newest too: no lookup then. A record that moves into a shared key needs the orders.
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
   * table's own order (they precede every later put, whose orders are higher): numbered from 1
   * again, so a bucket's `last` may read high, which only costs a re-sort, never a wrong order.
   */
  private orderOf(id: string): number {
    const known = this.firstPut.get(id);
    if (known !== undefined || !this.unordered) return known ?? 0;
    const orders = new Map<string, number>();
    let n = 0;
    for (const key of this.tableIds()) orders.set(key, this.firstPut.get(key) ?? ++n);
    this.firstPut = orders;
    this.unordered = false;
    return orders.get(id) ?? 0;
  }

  private index(name: string): Map<string, Bucket> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`table ${this.table} has no index ${name}`);
    return index.byKey;
  }
}
