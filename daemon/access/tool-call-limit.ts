import type { Clock } from '../clock.js';
import { createRateLimiter } from '../http/rate-limit.js';
import type { LimitStore } from '../store/limit-types.js';

/** Default tool calls per secret key: bursts of agent work fit, a runaway loop does not. */
export const DEFAULT_TOOL_CALLS_PER_MINUTE = 120;

export interface ToolCallLimit {
  /** Counts one tools/call for the key; null when allowed, else the seconds to wait (Retry-After). */
  hit(keyId: string): Promise<number | null>;
  /** What `hit` would answer now, counting nothing: what explain reports as the `rate_limit` rule. */
  wait(keyId: string): Promise<number | null>;
}

/**
 * The tools spec: servers MUST rate limit tool invocations. Counted per secret key (one agent, one
 * Company) on the injected clock, in the daemon's throttle store like every other limit, so a
 * restart does not hand a runaway agent a fresh minute.
 */
export function createToolCallLimit(
  store: LimitStore,
  clock: Clock,
  perMinute = DEFAULT_TOOL_CALLS_PER_MINUTE,
): ToolCallLimit {
  // 0 is off, for load benchmarks only: the store keeps each call's time for a minute, so a limit
  // set merely "very high" would make every call under load rewrite a huge row.
  if (perMinute === 0) return { hit: async () => null, wait: async () => null };
  const limiter = createRateLimiter(store, clock, 'mcp-tools', [{ limit: perMinute, windowMs: 60_000 }]);
  return { hit: (keyId) => limiter.hit(keyId), wait: (keyId) => limiter.wait(keyId) };
}

export const rateLimitMessage = (wait: number) =>
  `Too many tool calls for this key: the limit is per minute. Retry after ${wait} s (Retry-After).`;
