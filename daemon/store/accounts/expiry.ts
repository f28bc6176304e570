import type { Table, TableSpec, Tx } from '../engine/types.js';

/**
 * Incremental expiry of rows that die on their own (codes, sessions, challenges, throttle buckets).
 * Each such table files every row under the minute it may be forgotten (index `dead`). A cursor,
 * kept in the `meta` table, walks the minutes that have passed; each write that calls `sweep`
 * removes at most a few rows and steps over at most a few hundred minutes, so a write never costs
 * what the table holds, and the rows that are dead shrink faster than new ones arrive.
 */

const MINUTE = 60_000;
/** Rows removed by one sweep: more than one write can add, so garbage never piles up. */
const REMOVE_BUDGET = 8;
/** Minutes stepped over by one sweep: a day in a few writes after a long stop. */
const STEP_BUDGET = 512;
/** With no cursor yet (a new folder), rows that died up to this long before the first sweep are still found. */
const FIRST_LOOKBACK = 7 * 24 * 60;

export interface MetaRecord {
  id: string;
  [field: string]: unknown;
}

export const metaSpec: TableSpec<MetaRecord> = { name: 'meta', id: (r) => r.id };

/** The `dead` index key of a row that may be forgotten at `ms`. */
export const deadKey = (ms: number): string => String(Math.floor(ms / MINUTE));

/** The ms of an ISO time, +`plusMs`; a row with an unreadable time is never swept. */
export const msOf = (iso: string | null | undefined, plusMs = 0): number => {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? Number.MAX_SAFE_INTEGER : ms + plusMs;
};

export interface Sweeper {
  /** Removes a bounded number of rows dead by `nowMs`, as part of the write `tx`. */
  sweep(tx: Tx, nowMs: number): void;
}

export function createSweeper<T extends object>(
  table: Table<T>,
  meta: Table<MetaRecord>,
  idOf: (r: T) => string,
): Sweeper {
  const cursorId = `sweep:${table.name}`;
  return {
    sweep(tx, nowMs) {
      if (!Number.isFinite(nowMs)) return;
      // Read from the table, not a variable: a write that throws after sweeping leaves the cursor as it was.
      const now = Math.floor(nowMs / MINUTE);
      const stored = meta.get(cursorId)?.cursor;
      const start = typeof stored === 'number' ? stored : now - FIRST_LOOKBACK;
      let cursor = start;
      let removed = 0;
      // A minute is done once it is over and every row filed under it is gone.
      while (cursor < now && cursor - start < STEP_BUDGET && removed < REMOVE_BUDGET) {
        const rows = table.lookup('dead', String(cursor));
        const take = rows.slice(0, REMOVE_BUDGET - removed);
        for (const r of take) tx.remove(table, idOf(r));
        removed += take.length;
        if (take.length < rows.length) break;
        cursor++;
      }
      if (cursor !== stored) tx.put(meta, { id: cursorId, cursor });
    },
  };
}
