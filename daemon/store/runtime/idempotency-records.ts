import type { Space, Table } from '../engine/types.js';
import type { IdempotencyStore, RememberedAnswer } from '../runtime-types.js';

/** One answered request: `id` is `<scope>\0<key>`; `fingerprint` is a hash of the request body. */
export interface IdempotencyRecord extends RememberedAnswer {
  id: string;
  at_ms: number;
}

export function defineIdempotencyTable(space: Space): Table<IdempotencyRecord> {
  return space.define<IdempotencyRecord>({ name: 'idempotency_keys', id: (r) => r.id });
}

/**
 * Keys are kept for `windowMs` (24 h, CONTRACT §8), at most `maxKeys`, oldest forgotten first as new
 * ones arrive (the table iterates in arrival order, so forgetting stops at the first key still kept).
 * Persisted with the runtime's records, so a client retrying after a daemon restart is answered, not re-fired.
 */
export function createIdempotencyStore(
  space: Space,
  table: Table<IdempotencyRecord>,
  options: { windowMs?: number; maxKeys?: number } = {},
): IdempotencyStore {
  const windowMs = options.windowMs ?? 24 * 3600_000;
  const maxKeys = options.maxKeys ?? 100_000;
  const live = (r: IdempotencyRecord | undefined, nowMs: number) => (r && r.at_ms > nowMs - windowMs ? r : undefined);
  return {
    windowMs,
    get: async (key, nowMs) => {
      const r = live(table.get(key), nowMs);
      return r && { fingerprint: r.fingerprint, answer: r.answer };
    },
    remember: (key, remembered, nowMs) =>
      space.write((tx) => {
        let size = table.size;
        for (const r of table.all()) {
          if (r.at_ms > nowMs - windowMs && size < maxKeys) break;
          tx.remove(table, r.id);
          size--;
        }
        // A remove and a put of the same id in one write: the put wins (the record moves to the end).
        tx.put(table, { id: key, at_ms: nowMs, fingerprint: remembered.fingerprint, answer: remembered.answer });
      }),
  };
}
