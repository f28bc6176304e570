import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import { tooManyRequests } from '../http/api-error.js';
import { createFailureCeiling, createRateLimiter, type FailureCeiling, type RateLimiter } from '../http/rate-limit.js';

/**
 * The throttles of one login factor (SECURITY.md): requests per client address per 5 minutes, and
 * the per-account ceiling of 10 consecutive failures → 15 min lock-out (429).
 */
export interface FactorLimits {
  perAddress: RateLimiter;
  ceiling: FailureCeiling;
  /** Throws 429 with Retry-After when the client address used up its window. */
  throttle(ctx: Pick<Context, 'ip'>): void;
  /** Throws 429 while `accountKey` is locked out. */
  guardAccount(accountKey: string): void;
  /**
   * Checks the lock-out and counts this attempt as a failure in one synchronous step, before the
   * caller awaits anything: otherwise a burst of parallel guesses all passes the check before the
   * first failure is counted. Call `ceiling.succeed(accountKey)` when the attempt was right.
   */
  beginAttempt(accountKey: string): void;
}

export function createFactorLimits(deps: Pick<Deps, 'clock' | 'config'>): FactorLimits {
  const { failureCeiling, lockoutMs, factors } = deps.config.auth;
  const perAddress = createRateLimiter(deps.clock, [{ limit: factors.perAddressLimit, windowMs: 5 * 60_000 }]);
  const ceiling = createFailureCeiling(deps.clock, failureCeiling, lockoutMs);
  const guardAccount = (accountKey: string) => {
    const locked = ceiling.lockedFor(accountKey);
    if (locked !== null) throw tooManyRequests(locked, 'Too many failed attempts on this account. Try again later.');
  };
  return {
    perAddress,
    ceiling,
    throttle(ctx) {
      const wait = perAddress.hit(ctx.ip || 'unknown');
      if (wait !== null) throw tooManyRequests(wait);
    },
    guardAccount,
    beginAttempt(accountKey) {
      guardAccount(accountKey);
      ceiling.fail(accountKey);
    },
  };
}
