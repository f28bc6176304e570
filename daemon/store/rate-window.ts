import type { WindowRule } from './limit-types.js';

/**
 * The sliding-log decision both limit stores make: the milliseconds to wait before an attempt at
 * `nowMs` may count, given the attempt times still remembered, or 0 when it may count now.
 */
export function waitForHit(times: readonly number[], rules: readonly WindowRule[], nowMs: number): number {
  let waitMs = 0;
  for (const rule of rules) {
    const inWindow = times.filter((at) => at > nowMs - rule.windowMs);
    if (inWindow.length >= rule.limit)
      waitMs = Math.max(waitMs, inWindow[inWindow.length - rule.limit]! + rule.windowMs - nowMs);
  }
  return waitMs;
}
