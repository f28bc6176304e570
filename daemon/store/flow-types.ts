/**
 * Where a Company's flow-control state lives (company/bus/flow/): throttle windows, concurrency
 * slots and pending debounces. In this daemon's memory on the JSON store (store/runtime/flow-memory.ts),
 * in the database in team mode (store/postgres/runtime/flow.ts), where every daemon decides against
 * the same rows, so two daemons let through what one would.
 */

/** A debounce waiting for quiet: the last event of its burst fires once `due_ms` has come. */
export interface PendingDebounce {
  /** `<configured event id>|<bucket>`. */
  key: string;
  configured_event_id: string;
  /** The last event of the burst so far: the one that fires. */
  event_id: string;
  first_ms: number;
  due_ms: number;
}

/** One firing holding a concurrency slot: released when the work it started has ended. */
export interface FlowSlot {
  /** The event whose firing holds it. */
  holder: string;
  /** Quests the firing created (null while its calls are still running). */
  quest_ids: string[] | null;
  taken_ms: number;
}

export interface FlowStore {
  /** Throttle: records a firing of `key` at `nowMs` if fewer than `limit` fall within `periodMs`; else false, nothing recorded. */
  admit(key: string, nowMs: number, limit: number, periodMs: number): Promise<boolean>;
  /** Concurrency: takes a slot of `key` for `holder` if fewer than `limit` are held (atomically: of two daemons one wins the last slot). */
  claimSlot(key: string, holder: string, limit: number, nowMs: number): Promise<boolean>;
  /** The slots of `key`, oldest first. */
  slots(key: string): Promise<FlowSlot[]>;
  /** Records the quests a slot's firing created: the slot is held until they end. */
  holdSlot(key: string, holder: string, questIds: string[]): Promise<void>;
  releaseSlot(key: string, holder: string): Promise<void>;
  /**
   * Debounce: makes `eventId` the pending event of `key`, due `periodMs` from now but never later
   * than `maxWaitMs` after the burst's first event. Answers the event it replaced (it will not fire).
   */
  debounce(
    entry: { key: string; configured_event_id: string; event_id: string },
    nowMs: number,
    periodMs: number,
    maxWaitMs: number | null,
  ): Promise<{ replaced: string | null }>;
  /** Takes (removes) up to `limit` debounces due at `nowMs`: each is taken once, by one daemon. */
  takeDue(nowMs: number, limit: number): Promise<PendingDebounce[]>;
  /** When the soonest pending debounce is due, or null. */
  nextDueMs(): Promise<number | null>;
  /** Forgets every throttle window, slot and pending debounce whose key starts with `prefix`. */
  forget(prefix: string): Promise<void>;
}
