import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError } from './api-error.js';
import { DomainError } from '../domain-error.js';
import { isDatabaseUnavailable, isTransientConflict } from '../store/unavailable.js';
import type { CeilingRule, LimitStore } from '../store/limit-types.js';

/** What one attempt under a failure ceiling came to. */
export type Attempted<T> = { locked: number } | { locked: null; value: T };

export interface FailureCeiling {
  /** Seconds left on a lock-out of `key`, or null when it may try. */
  lockedFor(key: string): Promise<number | null>;
  /**
   * Runs `check` as one attempt on `key` and counts it by its outcome: `right(value)` clears the
   * failures, anything else (or a throw) counts one — except a 429 or 503 thrown before anything
   * was checked (the password-hash queue full, the database down, a transaction rolled back for
   * another): no guess was made or its answer was dropped, and counting it would let an overload
   * lock real users out. While the failures so far plus the attempts in
   * flight would reach the ceiling, a new attempt waits for one of those to finish: a burst of
   * parallel guesses never gets more than the ceiling's tries, and a burst of right answers is
   * never counted as failures. Resolves `{ locked }` (seconds) instead when the key is locked out.
   */
  attempt<T>(key: string, check: () => Promise<T>, right: (value: T) => boolean): Promise<Attempted<T>>;
  /** Records a failure; the `max`-th consecutive one starts the lock-out. */
  fail(key: string): Promise<void>;
  succeed(key: string): Promise<void>;
  /** How many keys are remembered (a memory check: it must not grow with every made-up e-mail). */
  tracked(): Promise<number>;
}

/**
 * How long a place held for an attempt in flight lasts if its daemon dies before releasing it
 * (team mode): far longer than a check takes, even behind a full password-hash queue.
 */
export const HOLD_LEASE_MS = 60_000;
/** How often an attempt waiting for a place held on another daemon looks again (team mode). */
const HOLD_POLL_MS = 25;

/**
 * SECURITY.md: 10 consecutive failures per account and factor lock it for 15 minutes. Callers key
 * it by `<factor>:<email>` for unknown e-mails too, so a lock-out does not reveal which exist.
 * The failures are stored. The attempts in flight are this process's own on the JSON store (a
 * restart ends them); in team mode the store holds them (LimitStore.holdAttempt), so a burst split
 * over daemons gets no more tries than the ceiling either.
 */
export function createFailureCeiling(
  store: LimitStore,
  clock: Clock,
  scope: string,
  max: number,
  lockMs: number,
): FailureCeiling {
  const rule: CeilingRule = { max, lockMs };
  const keyOf = (key: string) => `${scope}|${key}`;
  const inFlight = new Map<string, { n: number; waiters: (() => void)[] }>();
  const lockedFor = async (key: string) => {
    const ms = await store.lockedFor(keyOf(key), clock.now());
    return ms === null ? null : Math.ceil(ms / 1000);
  };
  const enter = (key: string) => {
    const flight = inFlight.get(key) ?? { n: 0, waiters: [] };
    flight.n++;
    inFlight.set(key, flight);
  };
  const settle = (key: string) => {
    const flight = inFlight.get(key)!;
    flight.n--;
    const waiters = flight.waiters.splice(0);
    if (flight.n === 0 && flight.waiters.length === 0) inFlight.delete(key);
    for (const wake of waiters) wake();
  };
  /** Resolves when an attempt of this daemon on `key` ends, or after `ms` (0: only the former). */
  const nextTurn = (key: string, ms = 0) =>
    new Promise<void>((wake) => {
      const flight = inFlight.get(key) ?? { n: 0, waiters: [] };
      inFlight.set(key, flight);
      const waiter = () => {
        clearTimeout(timer);
        wake();
      };
      // On time-out the waiter leaves the list (and an entry with nothing in it goes): a long wait
      // for another daemon's attempts must not pile up closures here.
      const timer =
        ms > 0
          ? setTimeout(() => {
              const i = flight.waiters.indexOf(waiter);
              if (i >= 0) flight.waiters.splice(i, 1);
              if (flight.n === 0 && flight.waiters.length === 0 && inFlight.get(key) === flight) inFlight.delete(key);
              wake();
            }, ms)
          : undefined;
      flight.waiters.push(waiter);
    });
  /**
   * Takes a place for one attempt: null when the key is locked out, else the store's hold (team
   * mode) or '' (this process's count). No await between the local check and the count: concurrent
   * attempts on this daemon see each other.
   */
  const takePlace = async (key: string): Promise<{ locked: number } | { hold: string }> => {
    for (;;) {
      const locked = await lockedFor(key);
      if (locked !== null) return { locked };
      if (store.holdAttempt) {
        const hold = randomUUID();
        if (await store.holdAttempt(keyOf(key), hold, clock.now(), max, HOLD_LEASE_MS)) {
          enter(key);
          return { hold };
        }
        // Held elsewhere too: wake when one of ours ends, or look again shortly for the others'.
        await nextTurn(key, HOLD_POLL_MS);
        continue;
      }
      const failures = await store.failures(keyOf(key), clock.now());
      // A count at the ceiling is a lock-out that began since the look above: look again.
      if (failures >= max) continue;
      const n = inFlight.get(key)?.n ?? 0;
      // With none in flight there is nothing to wait for.
      if (failures + n < max || n === 0) {
        enter(key);
        return { hold: '' };
      }
      await nextTurn(key);
    }
  };
  return {
    lockedFor,
    async attempt<T>(key: string, check: () => Promise<T>, right: (value: T) => boolean): Promise<Attempted<T>> {
      const place = await takePlace(key);
      if ('locked' in place) return place;
      try {
        let value: T;
        try {
          value = await check();
        } catch (err) {
          if (!notChecked(err)) await store.fail(keyOf(key), clock.now(), rule);
          throw err;
        }
        if (right(value)) await store.succeed(keyOf(key));
        else await store.fail(keyOf(key), clock.now(), rule);
        return { locked: null, value };
      } finally {
        // The outcome is counted: the place goes (a failed release ends with its lease).
        if (place.hold) await store.releaseAttempt?.(keyOf(key), place.hold).catch(() => {});
        settle(key);
      }
    },
    fail: (key) => store.fail(keyOf(key), clock.now(), rule),
    succeed: (key) => store.succeed(keyOf(key)),
    tracked: () => store.trackedFailures(),
  };
}

/**
 * The answers a check throws when it could not look at the secret at all (busy, unavailable), or
 * whose outcome was thrown away (team mode: the database down, or the transaction rolled back for
 * a conflicting one): the caller learns nothing from them, so they are no guess.
 */
const notChecked = (err: unknown) =>
  (err instanceof DomainError && (err.refusal === 'rate_limited' || err.refusal === 'unavailable')) ||
  (err instanceof ApiError && (err.status === 429 || err.status === 503)) ||
  isDatabaseUnavailable(err) ||
  isTransientConflict(err);
