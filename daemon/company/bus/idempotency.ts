import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '../../../shared/errors.js';
import { conflicting, invalid } from '../../domain-error.js';
import type { IdempotencyStore, RememberedAnswer } from '../../store/runtime-types.js';
import { createUnstoredAnswers, type UnstoredOptions } from './unstored-answers.js';

/** Printable ASCII, like the header it usually comes in; long enough for a UUID plus a prefix. */
const KEY = /^[\x21-\x7e]{1,200}$/;

const checkIdempotencyKey = (key: string): string => {
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
 * answers its caller all the same, and its answer is stored later (unstored-answers.ts).
 */
export function createIdempotentRunner(store: IdempotencyStore, now: () => number, options: UnstoredOptions = {}) {
  const inFlight = new Map<string, Promise<unknown>>();
  const unstored = createUnstoredAnswers(store, now, options);

  async function once<T>(
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
      return { answer: seen.answer as T, replayed: true };
    };
    const runAndRemember = async (claim?: { token: string; until: number }) => {
      let answer: T;
      try {
        answer = await run();
      } catch (err) {
        // Refused: the key is given up at once, so a repeat runs (the request may be sent again)
        // instead of waiting for the claim to run out.
        if (claim) await store.release?.(id, claim.token).catch(() => {});
        throw err;
      }
      const remembered = { fingerprint, answer };
      try {
        // With the claim's token: a run whose claim was taken over leaves the newer one alone.
        await store.remember(id, remembered, now(), claim?.token);
      } catch (err) {
        unstored.add(id, remembered, claim, err);
      }
      return { answer, replayed: false };
    };
    // Set before the first await: of two concurrent requests with one key, the second waits for the first.
    while (inFlight.has(id)) await inFlight.get(id)!.catch(() => undefined);
    const attempt = (async () => {
      const given = unstored.answerOf(id);
      if (given) return replay(given);
      if (!store.claim) {
        const seen = await store.get(id, now());
        return seen ? replay(seen) : runAndRemember();
      }
      for (let wait = FIRST_LOOK_MS; ; wait = Math.min(wait * 2, LAST_LOOK_MS)) {
        const taken = await store.claim(id, fingerprint, now());
        if ('token' in taken) return runAndRemember(taken);
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
  }

  return Object.assign(once, {
    /** Answers given whose storing is still being tried. */
    unstored: unstored.size,
    settled: unstored.settled,
    close: unstored.close,
  });
}
