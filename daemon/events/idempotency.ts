import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '../../shared/errors.js';
import { conflicting, invalid } from '../domain-error.js';
import type { IdempotencyStore, RememberedAnswer } from '../store/runtime-types.js';
import { appendedBefore } from './past-append.js';

/** Printable ASCII, like the header it usually comes in; long enough for a UUID plus a prefix. */
const KEY = /^[\x21-\x7e]{1,200}$/;

export const checkIdempotencyKey = (key: string): string => {
  if (!KEY.test(key))
    throw invalid(
      'Idempotency-Key: 1-200 printable characters (letters, digits, punctuation), no spaces.',
      ErrorCode.validationFailed,
    );
  return key;
};

/** How often a repeat looks again while another daemon runs its key: from 25 ms, doubling to 250. */
const FIRST_LOOK_MS = 25;
const LAST_LOOK_MS = 250;
/** The longest pause between two tries to store an answer the database refused at first. */
const LAST_RETRY_MS = 1_000;

const failedBefore = (key: string, failed: NonNullable<RememberedAnswer['failed']>) =>
  conflicting(
    `Idempotency-Key '${key}': its first request appended ${failed.event_id} and then failed (${failed.error}); ` +
      `it is not run again. See what it did with GET /api/events/${failed.event_id}/trace; a new key runs it anew.`,
    ErrorCode.conflict,
  );

const reused = (key: string) =>
  conflicting(
    `Idempotency-Key '${key}' was used within the last 24 hours for a different request; use a new key.`,
    ErrorCode.idempotencyKeyReused,
  );

/**
 * Runs `run` once per key within the store's window (CONTRACT §8: 24 h): a repeat answers what the
 * first call answered and fires nothing. The same key with a different request is a 409, never the
 * wrong answer. Concurrent repeats wait for the first: on this daemon through an in-process map; on
 * a store shared by several daemons (`claim`) the first also takes the key in the store before it
 * runs, and a repeat on another daemon waits for its answer. Only answers are remembered: a refused
 * request fired nothing and may be retried. A request that ran but whose answer the store refused
 * keeps its claim while the answer is tried again, so a retry gets the answer, not a second run.
 */
export function createIdempotentRunner(store: IdempotencyStore, now: () => number) {
  const inFlight = new Map<string, Promise<unknown>>();
  /**
   * Tries to store an answer again, from 25 ms doubling to 1 s, for as long as the claim holds the
   * key (past that another run may have taken it over). Timers are unref'd: a stopping daemon does
   * not wait for them; its claim then runs out as a dead daemon's does.
   */
  const keepRemembering = (id: string, remembered: RememberedAnswer) => {
    // Counted in the pauses themselves, not on `now` (a test's clock may stand still).
    let waited = 0;
    const attempt = (wait: number) =>
      setTimeout(() => {
        waited += wait;
        store.remember(id, remembered, now()).catch(() => {
          if (waited < (store.claimMs ?? 0)) attempt(Math.min(wait * 2, LAST_RETRY_MS));
        });
      }, wait).unref();
    attempt(FIRST_LOOK_MS);
  };
  return async function once<T>(
    scope: string,
    key: string,
    request: unknown,
    run: () => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean }> {
    const id = `${scope}\0${checkIdempotencyKey(key)}`;
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(request ?? null))
      .digest('base64url');
    const replay = (seen: RememberedAnswer) => {
      if (seen.fingerprint !== fingerprint) throw reused(key);
      if (seen.failed) throw failedBefore(key, seen.failed);
      return { answer: seen.answer as T, replayed: true };
    };
    /**
     * Stores what a run came to. It ran (its event is in the log), so if the store refuses now,
     * giving the key up would let the client's retry run it again: the claim is kept, and the
     * answer stored as soon as the database takes it; a repeat meanwhile waits for it, on any
     * daemon. The refusal is still reported to this caller.
     */
    const remember = async (remembered: RememberedAnswer, token?: string) => {
      try {
        await store.remember(id, remembered, now());
      } catch (err) {
        if (token) keepRemembering(id, remembered);
        throw err;
      }
    };
    const runAndRemember = async (token?: string) => {
      let answer: T;
      try {
        answer = await run();
      } catch (err) {
        const appended = appendedBefore(err);
        // Refused before anything was appended: the key is given up at once, so a repeat runs
        // (the request may be sent again) instead of waiting for the claim to run out.
        if (!appended) {
          if (token) await store.release?.(id, token).catch(() => {});
          throw err;
        }
        // Failed after its event was appended: run again, it would append a second one. The
        // failure is what is remembered, and a repeat is told what happened.
        const failed = { event_id: appended, error: (err as Error).message || String(err) };
        await remember({ fingerprint, answer: null, failed }, token).catch(() => {});
        throw err;
      }
      await remember({ fingerprint, answer }, token);
      return { answer, replayed: false };
    };
    // Set before the first await: of two concurrent requests with one key, the second waits for the first.
    while (inFlight.has(id)) await inFlight.get(id)!.catch(() => undefined);
    const attempt = (async () => {
      if (!store.claim) {
        const seen = await store.get(id, now());
        return seen ? replay(seen) : runAndRemember();
      }
      for (let wait = FIRST_LOOK_MS; ; wait = Math.min(wait * 2, LAST_LOOK_MS)) {
        const taken = await store.claim(id, fingerprint, now());
        if ('token' in taken) return runAndRemember(taken.token);
        if ('remembered' in taken) return replay(taken.remembered);
        // Another daemon runs this key: a different request is refused at once, the same one waits.
        if (taken.heldFor !== null && taken.heldFor !== fingerprint) throw reused(key);
        await sleep(wait);
      }
    })();
    inFlight.set(id, attempt);
    try {
      return await attempt;
    } finally {
      if (inFlight.get(id) === attempt) inFlight.delete(id);
    }
  };
}

export type IdempotentRunner = ReturnType<typeof createIdempotentRunner>;
