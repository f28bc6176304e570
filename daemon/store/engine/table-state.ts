import type { IndexKey, Table, TableSpec } from './types.js';

/**
 * One table's records and indexes in memory, shared by every backend of the engine. Lookups are
 * O(1) by id and by index key; a put or a remove costs what it changes, never what is stored.
 */
export class TableState<T extends object> implements Table<T> {
  readonly name: string;
  private readonly records = new Map<string, T>();
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
    return this.index(index).get(key)?.ids.size ?? 0;
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
      for (const key of after) {
        if (before.includes(key)) continue;
        let bucket = byKey.get(key);
        if (!bucket) byKey.set(key, (bucket = { ids: new Set(), last: 0, sorted: true }));
        bucket.ids.add(id);
        // A record that moved into this key lands last; the bucket is re-sorted on its next read.
        if (order < bucket.last) bucket.sorted = false;
        else bucket.last = order;
      }
    }
  }

  remove(id: string): void {
    const old = this.records.get(id);
    if (!old) return;
    for (const { keyOf, byKey } of this.indexes.values()) for (const key of keysOf(keyOf(old))) drop(byKey, key, id);
    this.records.delete(id);
    this.firstPut.delete(id);
  }

  /** The ids under `key`, in first-put order. */
  private ids(index: string, key: string): Set<string> | undefined {
    const bucket = this.index(index).get(key);
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

/** The ids filed under one index key; `last` is the newest first-put order among them. */
interface Bucket {
  ids: Set<string>;
  last: number;
  sorted: boolean;
}

function drop(byKey: Map<string, Bucket>, key: string, id: string): void {
  const bucket = byKey.get(key);
  if (!bucket) return;
  bucket.ids.delete(id);
  if (bucket.ids.size === 0) byKey.delete(key);
}

function keysOf(key: IndexKey): readonly string[] {
  if (key === null || key === undefined) return [];
  return typeof key === 'string' ? [key] : key;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
