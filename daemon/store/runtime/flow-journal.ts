import type { Space, Table } from '../engine/types.js';
import type { FlowStore, PendingDebounce } from '../flow-types.js';
import { memoryFlow } from './flow-memory.js';

const dueAt = (first: number, nowMs: number, periodMs: number, maxWaitMs: number | null) =>
  Math.min(nowMs + periodMs, maxWaitMs === null ? Number.POSITIVE_INFINITY : first + maxWaitMs);

/**
 * Flow-control state of the JSON store. Throttle windows and concurrency slots stay in memory (a
 * restart can only let more through), but a pending debounce is written to the Company's journal:
 * it is the only record of a firing still owed, and a restart must not drop it. Each push is one
 * small write, and taking a due one removes it in the same synchronous write that finds it, so it
 * fires once.
 */
export function journalFlow(space: Space, table: Table<PendingDebounce>): FlowStore {
  const memory = memoryFlow();
  return {
    ...memory,
    debounce: (entry, nowMs, periodMs, maxWaitMs) =>
      space.write((tx) => {
        const current = table.get(entry.key);
        const first = current?.first_ms ?? nowMs;
        tx.put(table, { ...entry, first_ms: first, due_ms: dueAt(first, nowMs, periodMs, maxWaitMs) });
        return { replaced: current?.event_id ?? null };
      }),
    takeDue: (nowMs, limit) =>
      space.write((tx) => {
        const due = [...table.all()]
          .filter((p) => p.due_ms <= nowMs)
          .sort((a, b) => a.due_ms - b.due_ms)
          .slice(0, limit);
        for (const p of due) tx.remove(table, p.key);
        return due;
      }),
    async nextDueMs() {
      let soonest: number | null = null;
      for (const p of table.all()) if (soonest === null || p.due_ms < soonest) soonest = p.due_ms;
      return soonest;
    },
    async forget(prefix) {
      await memory.forget(prefix);
      const gone = [...table.all()].filter((p) => p.key.startsWith(prefix));
      if (gone.length > 0)
        await space.write((tx) => {
          for (const p of gone) tx.remove(table, p.key);
        });
    },
  };
}
