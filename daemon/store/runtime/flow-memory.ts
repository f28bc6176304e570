import type { FlowSlot, FlowStore, PendingDebounce } from '../flow-types.js';
import { TimeWindow } from './time-window.js';

/** How often (in clock time) windows nobody counted into since their period ended are forgotten. */
const SWEEP_MS = 60_000;

/**
 * Flow-control state in this daemon's memory: the JSON store has one daemon, so nothing else
 * decides against it. Like window counts, a restart forgets it — throttle windows and slots start
 * empty (they can only let more through, never hold a firing back for good). The JSON store keeps
 * its pending debounces in the journal instead (flow-journal.ts); a dry run uses this whole.
 */
export function memoryFlow(): FlowStore {
  const windows = new Map<string, TimeWindow>();
  let sweptMs = Number.NEGATIVE_INFINITY;
  /**
   * Forgets the windows whose newest time has left its period, as the database sweeps expired
   * windows: keys of chains and agents that went quiet do not pile up. Once a minute of clock time
   * (or when the clock was set back), so its cost is spread over every firing of that minute.
   */
  const sweep = (nowMs: number) => {
    if (nowMs - sweptMs < SWEEP_MS && nowMs >= sweptMs) return;
    sweptMs = nowMs;
    for (const [key, w] of windows) if (w.expiresMs <= nowMs) windows.delete(key);
  };
  const slots = new Map<string, Map<string, FlowSlot>>();
  const pending = new Map<string, PendingDebounce>();

  return {
    async admit(key, nowMs, limit, periodMs) {
      sweep(nowMs);
      let w = windows.get(key);
      w?.dropUntil(nowMs - periodMs);
      const ok = (w?.size ?? 0) < limit;
      if (ok) {
        if (!w) windows.set(key, (w = new TimeWindow()));
        w.add(nowMs, periodMs);
      } else if (w?.size === 0) windows.delete(key);
      return ok;
    },
    async claimSlot(key, holder, limit, nowMs) {
      const held = slots.get(key) ?? new Map<string, FlowSlot>();
      if (held.has(holder)) return true;
      if (held.size >= limit) return false;
      held.set(holder, { holder, quest_ids: null, taken_ms: nowMs });
      slots.set(key, held);
      return true;
    },
    slots: async (key) => [...(slots.get(key)?.values() ?? [])].map((s) => ({ ...s })),
    async holdSlot(key, holder, questIds) {
      const slot = slots.get(key)?.get(holder);
      if (slot) slot.quest_ids = [...questIds];
    },
    async releaseSlot(key, holder) {
      const held = slots.get(key);
      held?.delete(holder);
      if (held?.size === 0) slots.delete(key);
    },
    async debounce(entry, nowMs, periodMs, maxWaitMs) {
      const current = pending.get(entry.key);
      const first = current?.first_ms ?? nowMs;
      const due = Math.min(nowMs + periodMs, maxWaitMs === null ? Number.POSITIVE_INFINITY : first + maxWaitMs);
      pending.set(entry.key, { ...entry, first_ms: first, due_ms: due });
      return { replaced: current?.event_id ?? null };
    },
    async takeDue(nowMs, limit) {
      const due = [...pending.values()]
        .filter((p) => p.due_ms <= nowMs)
        .sort((a, b) => a.due_ms - b.due_ms)
        .slice(0, limit);
      for (const p of due) pending.delete(p.key);
      return due;
    },
    async nextDueMs() {
      let soonest: number | null = null;
      for (const p of pending.values()) if (soonest === null || p.due_ms < soonest) soonest = p.due_ms;
      return soonest;
    },
    async forget(prefix) {
      for (const map of [windows, slots, pending] as Map<string, unknown>[])
        for (const k of [...map.keys()]) if (k.startsWith(prefix)) map.delete(k);
    },
  };
}
