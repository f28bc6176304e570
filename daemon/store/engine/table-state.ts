import type { IndexKey, Table, TableSpec } from './types.js';

/**
 * One table's records and indexes in memory, shared by every backend of the engine. Lookups are
 * O(1) by id and by index key; a put or a remove costs what it changes, never what is stored.
 */
export class TableState<T extends object> implements Table<T> {
  readonly name: string;
  private readonly records = new Map<string, T>();
  private readonly indexes = new Map<string, { keyOf: (r: T) => IndexKey; byKey: Map<string, Set<string>> }>();

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
    const ids = this.index(index).get(key);
    if (!ids) return [];
    const out: T[] = [];
    for (const id of ids) out.push(this.records.get(id)!);
    return out;
  }

  first(index: string, key: string): T | undefined {
    const ids = this.index(index).get(key);
    if (!ids) return undefined;
    for (const id of ids) return this.records.get(id);
    return undefined;
  }

  count(index: string, key: string): number {
    return this.index(index).get(key)?.size ?? 0;
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
    for (const { keyOf, byKey } of this.indexes.values()) {
      const keys = keysOf(keyOf(frozen));
      // A replaced record keeps its place under the keys it still has (lookups stay in first-put
      // order when a row is only touched); it leaves the keys it lost and joins the new ones last.
      if (old) {
        for (const key of keysOf(keyOf(old))) {
          if (keys.includes(key)) continue;
          const ids = byKey.get(key);
          if (!ids) continue;
          ids.delete(id);
          if (ids.size === 0) byKey.delete(key);
        }
      }
      for (const key of keys) {
        let ids = byKey.get(key);
        if (!ids) byKey.set(key, (ids = new Set()));
        ids.add(id);
      }
    }
  }

  remove(id: string): void {
    const old = this.records.get(id);
    if (!old) return;
    this.unindex(id, old);
    this.records.delete(id);
  }

  private unindex(id: string, record: T): void {
    for (const { keyOf, byKey } of this.indexes.values()) {
      for (const key of keysOf(keyOf(record))) {
        const ids = byKey.get(key);
        if (!ids) continue;
        ids.delete(id);
        if (ids.size === 0) byKey.delete(key);
      }
    }
  }

  private index(name: string): Map<string, Set<string>> {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`table ${this.name} has no index ${name}`);
    return index.byKey;
  }
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
