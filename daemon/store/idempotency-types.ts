/**
 * The answers of idempotent requests (CONTRACT §8): what each store keeps, and how a store shared
 * by several daemons lets only one of them run a key at a time.
 */

/** What an idempotent request answered, kept for the window (CONTRACT §8: 24 h). */
export interface RememberedAnswer {
  /** A hash of the request: the same key with another request is refused, never answered wrongly. */
  fingerprint: string;
  answer: unknown;
}

export interface IdempotencyStore {
  readonly windowMs: number;
  /** The answer remembered under `key`, if it is still within the window at `nowMs`. */
  get(key: string, nowMs: number): Promise<RememberedAnswer | undefined>;
  /**
   * Remembers (or replaces) the answer under `key`; forgets keys past the window as it goes. With
   * the `token` of a claim (stores with `claim`), only while that claim still holds the key: one
   * that ran out and was taken over belongs to the run that took it, and is left alone.
   */
  remember(key: string, remembered: RememberedAnswer, nowMs: number, token?: string): Promise<void>;
  /**
   * Stores shared by several daemons: takes `key` for one run before it starts, so a repeat on
   * another daemon waits instead of running too. Answers the token of the claim taken, the answer
   * already remembered, or that another run holds the key (with its request's fingerprint; null
   * when the holder is not visible yet). A claim ends with `remember`, with `release`, or when its
   * time runs out (its daemon died).
   */
  claim?(key: string, fingerprint: string, nowMs: number): Promise<IdempotencyClaim>;
  /** Gives up a claim whose run failed (nothing is remembered: the request may be sent again). */
  release?(key: string, token: string): Promise<void>;
}

/** A claim taken holds the key until `until` (the store's clock, ms) unless it ends before. */
export type IdempotencyClaim =
  | { token: string; until: number }
  | { remembered: RememberedAnswer }
  | { heldFor: string | null };
