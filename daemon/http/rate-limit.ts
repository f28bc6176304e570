import type { Clock } from '../clock.js';
import type { LimitStore, WindowRule } from '../store/limit-types.js';

export type { WindowRule } from '../store/limit-types.js';

/**
 * Rate limits (and, in failure-ceiling.ts, failure ceilings), measured on the injected clock. Their state lives in the
 * accounts store (`stores.limits`), so a restart neither hands out fresh buckets nor lifts a
 * lock-out. Each limiter owns a scope: its keys never meet another limiter's.
 */
export interface RateLimiter {
  /**
   * Counts one attempt for `key` when every rule allows it and resolves null; otherwise counts
   * nothing and resolves the seconds until the attempt would be allowed (for Retry-After).
   */
  hit(key: string): Promise<number | null>;
  /** What `hit` would answer now, counting nothing (explaining a refusal before it happens). */
  wait(key: string): Promise<number | null>;
  /** Forget `key` (e.g. after a successful login). */
  reset(key: string): Promise<void>;
}

/** Sliding-log limiter over one or more windows (e.g. 1 per 60 s and 5 per hour for signup). */
export function createRateLimiter(
  store: LimitStore,
  clock: Clock,
  scope: string,
  rules: readonly WindowRule[],
): RateLimiter {
  const keyOf = (key: string) => `${scope}|${key}`;
  return {
    async hit(key) {
      const waitMs = await store.hit(keyOf(key), rules, clock.now());
      return waitMs === null ? null : Math.ceil(waitMs / 1000);
    },
    async wait(key) {
      const waitMs = await store.peek(keyOf(key), rules, clock.now());
      return waitMs === null ? null : Math.ceil(waitMs / 1000);
    },
    reset: (key) => store.clear(keyOf(key)),
  };
}
