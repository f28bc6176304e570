import type { Deps } from '../deps.js';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError, tooManyRequests } from '../http/api-error.js';
import { createFailureCeiling, createRateLimiter, type FailureCeiling, type RateLimiter } from '../http/rate-limit.js';

/**
 * The account throttles (SECURITY.md), built once per app: createApp's auth routes make them
 * from the config unless the deps carry a set already (tests inject their own).
 */
export interface AuthLimits {
  /** Signup and resend-code share this bucket per e-mail: 1 per 60 s, 5 per hour. */
  signupEmail: RateLimiter;
  /** Forgot-password per e-mail, same rules but its own bucket (a reset request must not block a signup code). */
  recoveryEmail: RateLimiter;
  /** Every route that sends e-mail, per client address: 30 per 5 min. */
  mailAddress: RateLimiter;
  /** Password login per client address: 30 per 5 min. */
  loginAddress: RateLimiter;
  /** 10 consecutive failures per account and factor → 15 min lock-out; keyed `<factor>:<email>`. */
  failures: FailureCeiling;
}

export function createAuthLimits(deps: Pick<Deps, 'clock' | 'config'>): AuthLimits {
  const { clock, config } = deps;
  return {
    signupEmail: createRateLimiter(clock, config.auth.signupPerEmail),
    recoveryEmail: createRateLimiter(clock, config.auth.signupPerEmail),
    mailAddress: createRateLimiter(clock, config.auth.mailPerAddress),
    loginAddress: createRateLimiter(clock, config.auth.loginPerAddress),
    failures: createFailureCeiling(clock, config.auth.failureCeiling, config.auth.lockoutMs),
  };
}

/**
 * The app's one set of throttles: `deps.authLimits` when given (tests), else made on first use and
 * kept per deps object, so every router that asks (password login here, login codes or TOTP
 * elsewhere) counts against the same buckets and the same per-account ceiling.
 */
const perDeps = new WeakMap<object, AuthLimits>();
export function authLimitsFor(deps: Pick<Deps, 'clock' | 'config' | 'authLimits'>): AuthLimits {
  if (deps.authLimits) return deps.authLimits;
  let limits = perDeps.get(deps);
  if (!limits) perDeps.set(deps, (limits = createAuthLimits(deps)));
  return limits;
}

/** Counts one attempt against `limiter`, or throws the 429 with Retry-After. */
export function enforceLimit(limiter: RateLimiter, key: string, message?: string): void {
  const wait = limiter.hit(key);
  if (wait !== null) throw tooManyRequests(wait, message);
}

/** Throws the lock-out answer when `key` is locked; the same for known and unknown accounts. */
export function enforceNotLocked(failures: FailureCeiling, key: string): void {
  const wait = failures.lockedFor(key);
  if (wait === null) return;
  throw new ApiError(429, ErrorCode.accountLocked, 'Too many failed attempts for this account. Try again later.', { retry_after: wait }, {
    'Retry-After': String(Math.max(1, wait)),
  });
}
