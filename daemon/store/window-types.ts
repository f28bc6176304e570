/**
 * Where a Company's windows are counted (window matchers and detectors): the memory
 * counter of company/detectors/window-counter.ts on the JSON store, the database in team mode
 * (store/postgres/runtime/windows.ts), shared by every daemon.
 */

/** The `count`-th event within `within_ms` fires once; then the key is quiet for `cooldown_ms`. */
export interface EventWindowRule {
  count: number;
  within_ms: number;
  cooldown_ms: number;
}

/** Where one Company's windows are counted (company/detectors/window-counter.ts has the memory one). */
export interface WindowStore {
  /** Records one event for `key` at `nowMs`; true when this event crosses the threshold. */
  hit(key: string, nowMs: number, rule: EventWindowRule): Promise<boolean>;
  /** Whether `key` is quiet after firing (read only: counts nothing). */
  coolingDown(key: string, nowMs: number): Promise<boolean>;
  /** Forgets every key that starts with `prefix` (a deleted or changed configured event). */
  forget(prefix: string): Promise<void>;
}
