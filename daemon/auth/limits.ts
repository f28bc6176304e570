import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Stores } from '../store/types.js';
import { ErrorCode } from '../../shared/errors.js';
import { rateLimited } from '../domain-error.js';
import { createFailureCeiling, type FailureCeiling } from '../http/failure-ceiling.js';
import { createRateLimiter, type RateLimiter } from '../http/rate-limit.js';

/**
 * The account throttles (SECURITY.md), built once per app: createApp's auth routes make them
 * from the config unless the deps carry a set already (tests inject their own). Their state is
 * in `deps.stores.limits`, so it outlives a restart.
 */
export interface AuthLimits {
  /** Signup per e-mail: 1 per 60 s, 5 per hour, known address or not. */
  signupEmail: RateLimiter;
  /**
   * Resend-code by `{email}`, per e-mail, with the same rules: anyone may ask, so this is the
   * anti-mail-bomb limit of an address. Every ask draws on it, whether or not an account waits
   * there (the 429 tells nothing), and a signup counts one in it.
   */
  resendEmail: RateLimiter;
  /**
   * Resend-code by the account's own unverified session, per account, with the same rules; the
   * signup's code counts one. Only the holder of that session can spend it, so strangers asking
   * by `{email}` never lock the owner out of a new code.
   */
  resendAccount: RateLimiter;
  /** Forgot-password per e-mail, same rules but its own bucket (a reset request must not block a signup code). */
  recoveryEmail: RateLimiter;
  /** Every route that sends e-mail, per client address: 30 per 5 min. */
  mailAddress: RateLimiter;
  /** Password login per client address: 30 per 5 min. */
  loginAddress: RateLimiter;
  /** 10 consecutive failures per account and factor → 15 min lock-out; keyed `<factor>:<email>`. */
  failures: FailureCeiling;
}

// Named fields rather than Pick<Deps>: deps.ts carries AuthLimits, so importing it here would be a cycle.
export interface LimitDeps {
  clock: Clock;
  config: Config;
  stores: Stores;
}

/** The one failure-ceiling scope of every account factor: keys carry the factor (`pwd:`, `totp:`, `login_code:`). */
export const ACCOUNT_CEILING = 'account';

export function createAuthLimits(deps: LimitDeps): AuthLimits {
  const { clock, config } = deps;
  const store = deps.stores.limits;
  return {
    signupEmail: createRateLimiter(store, clock, 'signup_email', config.auth.signupPerEmail),
    resendEmail: createRateLimiter(store, clock, 'resend_email', config.auth.signupPerEmail),
    resendAccount: createRateLimiter(store, clock, 'resend_account', config.auth.signupPerEmail),
    recoveryEmail: createRateLimiter(store, clock, 'recovery_email', config.auth.signupPerEmail),
    mailAddress: createRateLimiter(store, clock, 'mail_address', config.auth.mailPerAddress),
    loginAddress: createRateLimiter(store, clock, 'login_address', config.auth.loginPerAddress),
    failures: createFailureCeiling(store, clock, ACCOUNT_CEILING, config.auth.failureCeiling, config.auth.lockoutMs),
  };
}

/** Counts one attempt against `limiter`, or throws the 429 with Retry-After. */
export async function enforceLimit(limiter: RateLimiter, key: string, message?: string): Promise<void> {
  const wait = await limiter.hit(key);
  if (wait !== null) throw rateLimited(wait, message);
}

/** The lock-out answer; the same for known and unknown accounts. */
const accountLocked = (wait: number) =>
  rateLimited(wait, 'Too many failed attempts for this account. Try again later.', ErrorCode.accountLocked);

/** Runs one attempt under the ceiling (FailureCeiling.attempt); a lock-out becomes its 429. */
export async function attemptUnlocked<T>(
  failures: FailureCeiling,
  key: string,
  check: () => Promise<T>,
  right: (value: T) => boolean,
): Promise<T> {
  const result = await failures.attempt(key, check, right);
  if (result.locked !== null) throw accountLocked(result.locked);
  return result.value;
}
