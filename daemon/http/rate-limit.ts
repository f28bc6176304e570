import type { Clock } from '../clock.js';

/**
 * In-memory rate limits, measured on the injected clock. They live in the daemon's memory on
 * purpose: a restart forgetting a throttle costs little, and no throttle write ever touches disk.
 */
export interface WindowRule {
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /**
   * Counts one attempt for `key` when every rule allows it and returns null; otherwise counts
   * nothing and returns the seconds until the attempt would be allowed (for Retry-After).
   */
  hit(key: string): number | null;
  /** Forget `key` (e.g. after a successful login). */
  reset(key: string): void;
}

/** Sliding-log limiter over one or more windows (e.g. 1 per 60 s and 5 per hour for signup). */
export function createRateLimiter(clock: Clock, rules: WindowRule[]): RateLimiter {
  const longest = Math.max(...rules.map((r) => r.windowMs));
  const log = new Map<string, number[]>();
  let sweepAt = clock.now() + longest;
  return {
    hit(key) {
      const now = clock.now();
      if (now >= sweepAt) {
        for (const [k, times] of log) if (times.at(-1)! <= now - longest) log.delete(k);
        sweepAt = now + longest;
      }
      const times = (log.get(key) ?? []).filter((t) => t > now - longest);
      let waitMs = 0;
      for (const rule of rules) {
        const inWindow = times.filter((t) => t > now - rule.windowMs);
        if (inWindow.length >= rule.limit) waitMs = Math.max(waitMs, inWindow[inWindow.length - rule.limit]! + rule.windowMs - now);
      }
      if (waitMs > 0) {
        log.set(key, times);
        return Math.ceil(waitMs / 1000);
      }
      times.push(now);
      log.set(key, times);
      return null;
    },
    reset(key) {
      log.delete(key);
    },
  };
}

export interface FailureCeiling {
  /** Seconds left on a lock-out of `key`, or null when it may try. */
  lockedFor(key: string): number | null;
  /** Records a failure; the `max`-th consecutive one starts the lock-out. */
  fail(key: string): void;
  succeed(key: string): void;
  /** How many keys are remembered (a memory check: it must not grow with every made-up e-mail). */
  tracked(): number;
}

/** Failures older than this with no lock-out running are forgotten (the map is fed by unauthenticated callers). */
const FORGET_FAILURES_MS = 24 * 3600_000;

/**
 * SECURITY.md: 10 consecutive failures per account and factor lock it for 15 minutes. Callers key
 * it by `<factor>:<email>` for unknown e-mails too, so a lock-out does not reveal which exist.
 */
export function createFailureCeiling(clock: Clock, max: number, lockMs: number): FailureCeiling {
  const state = new Map<string, { failures: number; lockedUntil: number; lastAt: number }>();
  let sweepAt = clock.now() + FORGET_FAILURES_MS;
  // Every key is named by the caller (`login_code:<any e-mail>`), so without a sweep each guess at a
  // made-up address would stay in memory for good. A key is dropped once its lock-out is over (the
  // next failure would start from zero anyway) or after a day without failures and no lock-out.
  const sweep = (now: number) => {
    for (const [key, s] of state) {
      const lockOver = s.lockedUntil > 0 && s.lockedUntil <= now;
      const idle = s.lockedUntil === 0 && s.lastAt <= now - FORGET_FAILURES_MS;
      if (lockOver || idle) state.delete(key);
    }
    sweepAt = now + Math.min(lockMs, FORGET_FAILURES_MS);
  };
  return {
    lockedFor(key) {
      const s = state.get(key);
      if (!s || s.lockedUntil <= clock.now()) return null;
      return Math.ceil((s.lockedUntil - clock.now()) / 1000);
    },
    fail(key) {
      if (clock.now() >= sweepAt) sweep(clock.now());
      const s = state.get(key) ?? { failures: 0, lockedUntil: 0, lastAt: 0 };
      if (s.lockedUntil && s.lockedUntil <= clock.now()) {
        s.failures = 0;
        s.lockedUntil = 0;
      }
      s.failures++;
      s.lastAt = clock.now();
      if (s.failures >= max) s.lockedUntil = clock.now() + lockMs;
      state.set(key, s);
    },
    succeed(key) {
      state.delete(key);
    },
    tracked: () => state.size,
  };
}
