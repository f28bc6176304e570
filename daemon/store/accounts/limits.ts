import type { LimitStore } from '../limit-types.js';
import { waitForHit } from '../rate-window.js';
import { createSweeper } from './expiry.js';
import type { AccountTables } from './tables.js';

/** Failures older than this with no lock-out running are forgotten (the rows are keyed by unauthenticated callers). */
const FORGET_FAILURES_MS = 24 * 3600_000;

/**
 * The throttles' state in the accounts space. A bucket row holds only the attempt times still
 * inside its longest window (a handful of numbers), so each counted attempt is one short journal
 * line; a row is forgotten once its window is empty, a few at each write.
 */
export function createLimitStore(t: AccountTables): LimitStore {
  const { space, rateBuckets, failures } = t;
  const bucketSweeper = createSweeper(rateBuckets, t.meta, (b) => b.id);
  const failureSweeper = createSweeper(failures, t.meta, (f) => f.id);
  const failuresOf = (key: string, nowMs: number) => {
    const row = failures.get(key);
    // A lock-out that is over starts the count again from zero.
    return !row || (row.lock > 0 && row.lock <= nowMs) ? 0 : row.n;
  };
  return {
    hit: (key, rules, nowMs) =>
      space.write((tx) => {
        bucketSweeper.sweep(tx, nowMs);
        const longest = Math.max(...rules.map((r) => r.windowMs));
        const times = (rateBuckets.get(key)?.t ?? []).filter((at) => at > nowMs - longest);
        const waitMs = waitForHit(times, rules, nowMs);
        if (waitMs > 0) return waitMs;
        times.push(nowMs);
        tx.put(rateBuckets, { id: key, t: times, exp: nowMs + longest });
        return null;
      }),
    peek: async (key, rules, nowMs) => {
      const waitMs = waitForHit(rateBuckets.get(key)?.t ?? [], rules, nowMs);
      return waitMs > 0 ? waitMs : null;
    },
    clear: (key) =>
      space.write((tx) => {
        if (rateBuckets.get(key)) tx.remove(rateBuckets, key);
      }),
    lockedFor: async (key, nowMs) => {
      const row = failures.get(key);
      return row && row.lock > nowMs ? row.lock - nowMs : null;
    },
    failures: async (key, nowMs) => failuresOf(key, nowMs),
    fail: (key, nowMs, rule) =>
      space.write((tx) => {
        failureSweeper.sweep(tx, nowMs);
        const n = failuresOf(key, nowMs) + 1;
        const lock = n >= rule.max ? nowMs + rule.lockMs : 0;
        tx.put(failures, { id: key, n, lock, exp: lock || nowMs + FORGET_FAILURES_MS });
      }),
    succeed: (key) =>
      space.write((tx) => {
        if (failures.get(key)) tx.remove(failures, key);
      }),
    trackedFailures: async () => failures.size,
  };
}
