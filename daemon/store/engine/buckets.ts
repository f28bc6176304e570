import type { IndexKey } from './types.js';

/** The pieces of a table's indexes below `TableState`: a key's bucket, dropping an id from it, freezing records. */

/** The id filed under one index key, or the ids of a shared key (`last`: the newest first-put order among them). */
export type Bucket = string | { ids: Set<string>; last: number; sorted: boolean };

export function drop(byKey: Map<string, Bucket>, key: string, id: string): void {
  const bucket = byKey.get(key);
  if (bucket === undefined) return;
  if (typeof bucket === 'string') {
    if (bucket === id) byKey.delete(key);
    return;
  }
  bucket.ids.delete(id);
  if (bucket.ids.size === 0) byKey.delete(key);
  else if (bucket.ids.size === 1) byKey.set(key, bucket.ids.values().next().value!);
}

export function keysOf(key: IndexKey): readonly string[] {
  if (key === null || key === undefined) return [];
  return typeof key === 'string' ? [key] : key;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (v && typeof v === 'object') deepFreeze(v);
    }
  }
  return value;
}
