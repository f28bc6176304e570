import type { RetryPolicy } from '../../../../shared/runtime-records.js';
import type { Random } from '../../../random.js';

/**
 * The wait before the next attempt, after attempt `failed` (1 = the first run) failed; `lastDelayMs`
 * is the wait before that attempt (0 after the first run). Jitter spreads the retries of many
 * calls that failed together (one outage) so they do not all come back at the same moment:
 * - `full`: uniform in [initial_ms, min(max_ms, initial_ms · 2^(failed-1))] — exponential, jittered
 *   over the whole step but never sooner than `initial_ms` (a 0 ms retry would hit the same outage);
 * - `decorrelated`: uniform in [initial_ms, min(max_ms, 3 · last delay)], the step grown from the
 *   last wait drawn rather than from the attempt count.
 */
export function nextDelayMs(policy: RetryPolicy, failed: number, lastDelayMs: number, random: Random): number {
  const { initial_ms, max_ms, jitter } = policy.backoff;
  const ceiling =
    jitter === 'decorrelated'
      ? Math.min(max_ms, Math.max(initial_ms, lastDelayMs * 3))
      : Math.min(max_ms, initial_ms * 2 ** Math.min(failed - 1, 30));
  return ceiling <= initial_ms ? initial_ms : random.int(initial_ms, ceiling + 1);
}
