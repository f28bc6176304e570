import type { EventWindowRule as WindowRule, WindowStore } from '../../store/window-types.js';

export type { EventWindowRule as WindowRule, WindowStore } from '../../store/window-types.js';

/**
 * Counts events per key in a sliding window: the `count`-th event within `within_ms` fires once,
 * then the key is quiet for `cooldown_ms` (events in the cooldown are not counted, so a burst fires
 * once, not once per event past the threshold). State lives in memory and is bounded: each key
 * keeps at most `count` timestamps, and past `maxEntries` timestamps in total the least recently
 * used keys are forgotten (a forgotten key starts counting afresh — it can only fire later, never
 * twice). A restart forgets every window, which is the same outcome.
 */

/** A WindowStore over one daemon's in-memory counter. */
export function memoryWindows(counter: WindowCounter = createWindowCounter()): WindowStore {
  return {
    hit: async (key, nowMs, rule) => counter.hit(key, nowMs, rule),
    coolingDown: async (key, nowMs) => counter.coolingDown(key, nowMs),
    forget: async (prefix) => counter.forget(prefix),
  };
}

export interface WindowCounter {
  /** Records one event for `key` at `nowMs`; true when this event crosses the threshold. */
  hit(key: string, nowMs: number, rule: WindowRule): boolean;
  /** Whether `key` is quiet after firing (read only: counts nothing). */
  coolingDown(key: string, nowMs: number): boolean;
  /** Forgets every key that starts with `prefix` (a deleted configured event). */
  forget(prefix: string): void;
  /** Timestamps held, for tests and for the status of the daemon. */
  size(): number;
}

interface State {
  times: number[];
  cooldownUntil: number;
}

export function createWindowCounter(options: { maxEntries?: number } = {}): WindowCounter {
  const maxEntries = options.maxEntries ?? 100_000;
  const states = new Map<string, State>();
  let entries = 0;

  const touch = (key: string): State => {
    let s = states.get(key);
    if (s)
      states.delete(key); // re-insert: Map order is then least recently used first
    else s = { times: [], cooldownUntil: 0 };
    states.set(key, s);
    return s;
  };
  const drop = (key: string, s: State) => {
    entries -= s.times.length;
    states.delete(key);
  };

  return {
    hit(key, nowMs, rule) {
      const s = touch(key);
      if (nowMs < s.cooldownUntil) return false;
      const before = s.times.length;
      s.times = s.times.filter((t) => t > nowMs - rule.within_ms);
      s.times.push(nowMs);
      if (s.times.length > rule.count) s.times.splice(0, s.times.length - rule.count);
      entries += s.times.length - before;
      let fired = false;
      if (s.times.length >= rule.count) {
        entries -= s.times.length;
        s.times = [];
        s.cooldownUntil = nowMs + rule.cooldown_ms;
        fired = true;
      }
      for (const [k, st] of states) {
        if (entries <= maxEntries || k === key) break;
        drop(k, st);
      }
      if (!fired && s.times.length === 0 && s.cooldownUntil <= nowMs) drop(key, s);
      return fired;
    },
    coolingDown: (key, nowMs) => nowMs < (states.get(key)?.cooldownUntil ?? 0),
    forget(prefix) {
      for (const [k, s] of states) if (k.startsWith(prefix)) drop(k, s);
    },
    size: () => entries,
  };
}
