import { type Bucket, deepFreeze, drop, keysOf } from './buckets.js';
import type { IndexKey, Table, TableSpec } from './types.js';

/**
 * One table's records and indexes in memory, shared by every backend of the engine. Lookups are
 * O(1) by id and by index key; a put or a remove costs what it changes, never what is stored.
 */
export class TableState<T extends object> implements Table<T> {
  readonly name: string;
  private records = new Map<string, T>();
  // A key held by one record maps to its id; only a shared key gets a bucket. Most keys (e-mail,
  // token hash, session id) are unique, and 100,000 one-element Sets cost more time and memory than the records.
  private readonly indexes = new Map<string, { keyOf: (r: T) => IndexKey; byKey: Map<string, Bucket> }>();
  /** When each record was first put: lookups answer in this order, whatever was replaced since. */
  private readonly firstPut = new Map<string, number>();
  private puts = 0;

  constructor(readonly spec: TableSpec<T>) {
    this.name = spec.name;
    for (const [name, keyOf] of Object.entries(spec.indexes ?? {})) this.indexes.set(name, { keyOf, byKey: new Map() });
  }

  get size(): number {
    return this.records.size;
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  lookup(index: string, key: string): T[] {
    const ids = this.ids(index, key);
    if (!ids) return [];
    const out: T[] = [];
    for (const id of ids) out.push(this.records.get(id)!);
    return out;
  }

  first(index: string, key: string): T | undefined {
    const ids = this.ids(index, key);
    if (!ids) return undefined;
    for (const id of ids) return this.records.get(id);
    return undefined;
  }

  count(index: string, key: string): number {
    const bucket = this.index(index).get(key);
    return bucket === undefined ? 0 : typeof bucket === 'string' ? 1 : bucket.ids.size;
  }

  all(): IterableIterator<T> {
    return this.records.values();
  }

  /** Inserts or replaces a record (frozen, so nobody edits it behind the engine's back). */
  put(record: T): void {
    const id = this.spec.id(record);
    const old = this.records.get(id);
    const frozen = deepFreeze(record);
    this.records.set(id, frozen);
    let order = this.firstPut.get(id);
    if (order === undefined) this.firstPut.set(id, (order = ++this.puts));
    for (const { keyOf, byKey } of this.indexes.values()) {
      const before = old ? keysOf(keyOf(old)) : [];
      const after = keysOf(keyOf(frozen));
      // A key the record keeps keeps its place: replacing a record does not reorder its lookups.
      for (const key of before) if (!after.includes(key)) drop(byKey, key, id);
      for (const key of after) if (!before.includes(key)) this.file(byKey, key, id, order);
    }
  }

  /**
   * Fills the table with records read from disk, keyed by their stored ids in first-put order (the
   * map is taken over, not copied). On an empty table this files them without what `put` does per
   * record to compare old and new keys: at 200,000 records that bookkeeping was a third of the open.
   */
  load(stored: Map<string, T>): void {
    if (this.records.size > 0) {
      for (const record of stored.values()) this.put(record);
      return;
    }
    const indexes = [...this.indexes.values()];
    const misfiled: [string, T][] = [];
    for (const [id, record] of stored) {
      // A record whose id the spec computes differently (the spec changed) is put under the right one below.
      if (this.spec.id(record) !== id) {
        misfiled.push([id, record]);
        continue;
      }
      deepFreeze(record);
      const order = ++this.puts;
      this.firstPut.set(id, order);
      for (const { keyOf, byKey } of indexes) {
        const key = keyOf(record);
        if (typeof key === 'string') this.file(byKey, key, id, order);
        else if (key) for (const k of key) this.file(byKey, k, id, order);
      }
    }
    this.records = stored;
    for (const [id] of misfiled) stored.delete(id);
    for (const [, record] of misfiled) this.put(record);
  }

  remove(id: string): void {
    const old = this.records.get(id);
    if (!old) return;
    for (const { keyOf, byKey } of this.indexes.values()) for (const key of keysOf(keyOf(old))) drop(byKey, key, id);
    this.records.delete(id);
    this.firstPut.delete(id);
  }

  private file(byKey: Map<string, Bucket>, key: string, id: string, order: number): void {
    const bucket = byKey.get(key);
    if (bucket === undefined) return void byKey.set(key, id);
    if (typeof bucket === 'string') {
      if (bucket === id) return;
      const other = this.firstPut.get(bucket)!;
      byKey.set(key, {
        ids: new Set(other < order ? [bucket, id] : [id, bucket]),
        last: Math.max(other, order),
        sorted: true,
      });
      return;
    }
    bucket.ids.add(id);
    // A record that moved into this key lands last; the bucket is re-sorted on its next read.
    if (order < bucket.last) bucket.sorted = false;
    else bucket.last = order;
  }

  /** The ids under `key`, in first-put order. */
  private ids(index: string, key: string): Iterable<string> | undefined {
    const bucket = this.index(index).get(key);
    if (typeof bucket === 'string') return [bucket];
    if (bucket && !bucket.sorted) {
      bucket.ids = new Set([...bucket.ids].sort((a, b) => this.firstPut.get(a)! - this.firstPut.get(b)!));
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
