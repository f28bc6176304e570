/**
 * The throttles' state (SECURITY.md): sliding-log rate-limit buckets and per-account failure
 * ceilings. Kept in the accounts store so a restart does not hand an attacker fresh buckets or lift a
 * lock-out. Each check-and-count is one atomic step, so concurrent requests cannot both pass a full
 * bucket. Keys are named by the caller and carry their scope (`signup_email|a@example.com`).
 */

export interface WindowRule {
  limit: number;
  windowMs: number;
}

export interface CeilingRule {
  /** The `max`-th consecutive failure starts the lock-out. */
  max: number;
  lockMs: number;
}

/** One bucket: the times (ms) of the attempts still inside the longest window. */
export interface RateBucketRecord {
  id: string;
  t: number[];
  /** When the bucket is empty again (last attempt + longest window): it may be forgotten then. */
  exp: number;
}

/** One account key's run of failures. */
export interface FailureRecord {
  id: string;
  /** Consecutive failures so far. */
  n: number;
  /** End of the lock-out (ms), 0 when none started. */
  lock: number;
  /** When the row may be forgotten: the lock-out's end, or a day after the last failure. */
  exp: number;
}

export interface LimitStore {
  /**
   * Counts one attempt under `key` when every rule allows it and returns null; otherwise counts
   * nothing and returns the milliseconds until an attempt would be allowed.
   */
  hit(key: string, rules: readonly WindowRule[], nowMs: number): Promise<number | null>;
  /** What `hit` would answer now, counting nothing: null when an attempt would count, else the milliseconds to wait. */
  peek(key: string, rules: readonly WindowRule[], nowMs: number): Promise<number | null>;
  /** Forgets the attempts counted under `key`. */
  clear(key: string): Promise<void>;
  /** Milliseconds left on `key`'s lock-out, or null when it may try. */
  lockedFor(key: string, nowMs: number): Promise<number | null>;
  /** Consecutive failures counted under `key` (0 once a lock-out is over). */
  failures(key: string, nowMs: number): Promise<number>;
  /** Counts one failure; the rule's `max`-th consecutive one starts the lock-out. */
  fail(key: string, nowMs: number, rule: CeilingRule): Promise<void>;
  /** Clears `key`'s failures (a right answer). */
  succeed(key: string): Promise<void>;
  /** How many failure rows are remembered (a memory check: made-up e-mails must not pile up). */
  trackedFailures(): Promise<number>;
  /**
   * Team mode: attempts in flight counted across daemons. Takes a place named `hold` for one
   * attempt on `key` when the failures so far plus the places held stay under `max` (or none is
   * held), and says whether it did; the place lasts until `releaseAttempt`, or `leaseMs` if its
   * daemon dies. Absent on the JSON store, where one daemon holds the data folder and counts its
   * attempts in flight in memory.
   */
  holdAttempt?(key: string, hold: string, nowMs: number, max: number, leaseMs: number): Promise<boolean>;
  releaseAttempt?(key: string, hold: string): Promise<void>;
}
