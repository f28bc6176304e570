import type { Context } from 'koa';
import { rateLimited } from '../domain-error.js';
import { createFailureCeiling, type FailureCeiling } from '../http/failure-ceiling.js';
import { createRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { ACCOUNT_CEILING, type LimitDeps } from './limits.js';

/**
 * The throttles of one login factor (SECURITY.md): requests per client address per 5 minutes, and
 * the per-account ceiling of 10 consecutive failures → 15 min lock-out (429). Stored, like every
 * throttle, in `deps.stores.limits`.
 */
export interface FactorLimits {
  perAddress: RateLimiter;
  ceiling: FailureCeiling;
  /** Throws 429 with Retry-After when the client address used up its window. */
  throttle(ctx: Pick<Context, 'ip'>): Promise<void>;
  /** Throws 429 while `accountKey` is locked out. */
  guardAccount(accountKey: string): Promise<void>;
  /**
   * Runs `check` as one attempt on `accountKey` (FailureCeiling.attempt): right answers clear the
   * failures, wrong ones count, and a burst of parallel attempts never gets past the ceiling.
   * Throws 429 while the account is locked out.
   */
  attempt<T>(accountKey: string, check: () => Promise<T>, right: (value: T) => boolean): Promise<T>;
}

/** `factor` names the per-address bucket (`totp`, `login_code`, …): each factor has its own. */
export function createFactorLimits(deps: LimitDeps, factor: string): FactorLimits {
  const { failureCeiling, lockoutMs, factors } = deps.config.auth;
  const store = deps.stores.limits;
  const perAddress = createRateLimiter(store, deps.clock, `${factor}_address`, [
    { limit: factors.perAddressLimit, windowMs: 5 * 60_000 },
  ]);
  const ceiling = createFailureCeiling(store, deps.clock, ACCOUNT_CEILING, failureCeiling, lockoutMs);
  const locked = (wait: number) => rateLimited(wait, 'Too many failed attempts on this account. Try again later.');
  return {
    perAddress,
    ceiling,
    async throttle(ctx) {
      const wait = await perAddress.hit(ctx.ip || 'unknown');
      if (wait !== null) throw rateLimited(wait);
    },
    async guardAccount(accountKey) {
      const wait = await ceiling.lockedFor(accountKey);
      if (wait !== null) throw locked(wait);
    },
    async attempt(accountKey, check, right) {
      const result = await ceiling.attempt(accountKey, check, right);
      if (result.locked !== null) throw locked(result.locked);
      return result.value;
    },
  };
}
