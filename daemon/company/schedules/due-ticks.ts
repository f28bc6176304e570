import type { CronExpression } from 'cron-parser';
import { latestTickAtOrBefore } from '../../../shared/cron.js';

/**
 * What happens to ticks that came due while the daemon was down (or a walk was late):
 * - `latest` (default): fire the latest due tick once; the ones before it are superseded.
 * - `skip`: fire only a tick that is on time (due within the grace period); drop missed ones.
 * - `all`: fire every missed tick in order, but at most `maxCatchUp` (the most recent ones).
 */
export type MissedTickPolicy = 'latest' | 'skip' | 'all';
export interface DuePolicy {
  missed: MissedTickPolicy;
  /** Cap of `all`: a week of a once-a-minute schedule must not turn into 10 000 firings at start. */
  maxCatchUp: number;
  /** A tick due within this long before the walk is on time, not missed (one walk may run late). */
  graceMs: number;
}

export interface DueTicks {
  /** Ticks to fire, oldest first. */
  fire: Array<{ at: number; late: boolean }>;
  /** Missed ticks not fired by the policy (a count; for `all` only those past the cap are counted, up to a bound). */
  dropped: number;
}

const NONE: DueTicks = { fire: [], dropped: 0 };

/**
 * The ticks in (`fromMs`, `nowMs`] to fire under the policy. `latestDue` is the latest tick at or
 * before now, passed in because the caller memoises it per expression within one walk (10 000
 * schedules often share a few expressions).
 */
export function selectDueTicks(
  expr: CronExpression,
  fromMs: number,
  nowMs: number,
  latestDue: number | null,
  policy: DuePolicy,
): DueTicks {
  if (latestDue === null || latestDue <= fromMs) return NONE;
  const onTime = latestDue > nowMs - policy.graceMs;
  if (policy.missed === 'skip')
    return onTime ? { fire: [{ at: latestDue, late: false }], dropped: 0 } : { fire: [], dropped: 1 };
  if (policy.missed === 'latest') return { fire: [{ at: latestDue, late: !onTime }], dropped: 0 };
  const picked: number[] = [latestDue];
  let cursor = latestDue;
  while (picked.length < policy.maxCatchUp) {
    const before = latestTickAtOrBefore(expr, cursor - 1);
    if (before === null || before <= fromMs) break;
    picked.push(before);
    cursor = before;
  }
  let dropped = 0;
  if (picked.length === policy.maxCatchUp) {
    // Count what the cap leaves out, up to a bound: the number is for the report, not worth a long loop.
    let t = latestTickAtOrBefore(expr, cursor - 1);
    while (t !== null && t > fromMs && dropped < 1_000) {
      dropped++;
      t = latestTickAtOrBefore(expr, t - 1);
    }
  }
  return { fire: picked.reverse().map((at) => ({ at, late: at <= nowMs - policy.graceMs })), dropped };
}
