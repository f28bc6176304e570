import type { Space } from '../engine/types.js';
import type { PendingRetry, RetryStore } from '../runtime-types.js';
import type { RuntimeTables } from './tables.js';

/**
 * Pending retries over the record engine. The table holds only calls still to settle (a settled
 * one is removed with the firing that settles it), so a walk that reads it whole stays small.
 * Claims are check-and-sets inside one write: of two walks exactly one takes an attempt.
 */
export function createRetryStore(space: Space, t: RuntimeTables): RetryStore {
  const isDue = (r: PendingRetry, nowMs: number) =>
    r.state === 'pending' ? r.due_ms <= nowMs : (r.lease_until_ms ?? 0) <= nowMs;
  return {
    due: async (nowMs, limit) =>
      [...t.retries.all()]
        .filter((r) => isDue(r, nowMs))
        .sort((a, b) => a.due_ms - b.due_ms)
        .slice(0, limit),
    nextDueMs: async () => {
      let next: number | null = null;
      for (const r of t.retries.all()) {
        const at = r.state === 'pending' ? r.due_ms : (r.lease_until_ms ?? 0);
        if (next === null || at < next) next = at;
      }
      return next;
    },
    claim: (id, attempt, nowMs, leaseMs) =>
      space.write((tx) => {
        const r = t.retries.get(id);
        if (!r || r.attempt !== attempt || r.state !== 'pending' || r.due_ms > nowMs) return undefined;
        const claimed: PendingRetry = { ...r, state: 'running', lease_until_ms: nowMs + leaseMs };
        tx.put(t.retries, claimed);
        return claimed;
      }),
    takeInterrupted: (id, attempt, nowMs) =>
      space.write((tx) => {
        const r = t.retries.get(id);
        if (!r || r.attempt !== attempt || r.state !== 'running' || (r.lease_until_ms ?? 0) > nowMs) return undefined;
        tx.remove(t.retries, id);
        return r;
      }),
    countFor: async (configuredEventId) => t.retries.count('configured', configuredEventId),
    of: async (eventId) => t.retries.lookup('event', eventId),
  };
}
