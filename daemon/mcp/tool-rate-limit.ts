import type { Clock } from '../clock.js';
import { createRateLimiter } from '../http/rate-limit.js';

/** Default tool calls per secret key: bursts of agent work fit, a runaway loop does not. */
export const DEFAULT_TOOL_CALLS_PER_MINUTE = 120;

export interface ToolCallLimit {
  /** Counts one tools/call for the key; null when allowed, else the seconds to wait (Retry-After). */
  hit(keyId: string): number | null;
}

/**
 * The tools spec: servers MUST rate limit tool invocations. Counted per secret key (one agent, one
 * Company) in the daemon's memory, on the injected clock: a restart forgetting it costs little.
 */
export function createToolCallLimit(clock: Clock, perMinute = DEFAULT_TOOL_CALLS_PER_MINUTE): ToolCallLimit {
  const limiter = createRateLimiter(clock, [{ limit: perMinute, windowMs: 60_000 }]);
  return { hit: (keyId) => limiter.hit(`mcp-tools:${keyId}`) };
}

export const rateLimitMessage = (wait: number) =>
  `Too many tool calls for this key: the limit is per minute. Retry after ${wait} s (Retry-After).`;
