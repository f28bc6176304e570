import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '../../shared/errors.js';
import { conflicting, invalid } from '../domain-error.js';
import type { IdempotencyStore, RememberedAnswer } from '../store/runtime-types.js';

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

const reused = (key: string) =>
  conflicting(
    `Idempotency-Key '${key}' was used within the last 24 hours for a different request; use a new key.`,
    ErrorCode.idempotencyKeyReused,
  );

/** How long a daemon keeps trying to store an answer the store refused: as long as a claim lasts. */
export const STORE_FOR_MS = 30_000;
/** Pauses between tries: from 25 ms, doubling to 1 s. */
const FIRST_TRY_MS = 25;
const LAST_TRY_MS = 1_000;

export interface IdempotentRunnerOptions {
  /** Waits `ms` before the next try to store an answer; resolves early when `signal` aborts (tests: a fake). */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const pauseFor = (ms: number, signal: AbortSignal) =>
  sleep(ms, undefined, { signal }).catch(() => {
    // Aborted: the runner is closing and makes its last try at once.
  });

/**
 * Runs `run` once per key within the store's window (CONTRACT §8: 24 h): a repeat answers what the
 * first call answered and fires nothing. The same key with a different request is a 409, never the
 * wrong answer. Concurrent repeats wait for the first: on this daemon through an in-process map; on
 * a store shared by several daemons (`claim`) the first also takes the key in the store before it
 * runs, and a repeat on another daemon waits for its answer. Only answers are remembered: a refused
 * request fired nothing and may be retried.
 *
 * A request that ran but whose answer the store refused (the database went away as it answered)
 * already did its work, so its caller gets the answer, not an error it would retry into a second
 * event. The daemon keeps the claim and the answer, replays that answer to repeats sent to it, and
 * stores it as soon as the store takes it (for up to STORE_FOR_MS, as long as a claim lasts), while
 * a repeat on another daemon waits for the claim as for any run. A try made after another daemon
 * took the claim over changes nothing (`remember` with the token).
 */
export function createIdempotentRunner(
  store: IdempotencyStore,
  now: () => number,
  options: IdempotentRunnerOptions = {},
) {
  const pause = options.pause ?? pauseFor;
  const inFlight = new Map<string, Promise<unknown>>();
  /** Answers given but not stored yet, by key: what a repeat on this daemon is answered meanwhile. */
  const unstored = new Map<string, RememberedAnswer>();
  const storing = new Set<Promise<void>>();
  const closing = new AbortController();

  const storeLater = (id: string, remembered: RememberedAnswer, token: string | undefined) => {
    unstored.set(id, remembered);
    const until = now() + STORE_FOR_MS;
    const job = (async () => {
      for (let wait = FIRST_TRY_MS; ; wait = Math.min(wait * 2, LAST_TRY_MS)) {
        const last = closing.signal.aborted || now() + wait > until;
        if (!closing.signal.aborted) await pause(last ? Math.max(0, until - now()) : wait, closing.signal);
        try {
          await store.remember(id, remembered, now(), token);
          break;
        } catch {
          if (last || closing.signal.aborted) break;
        }
      }
      // Stored, or given up: a repeat after this asks the store (the claim, if any, runs out on its own).
      if (unstored.get(id) === remembered) unstored.delete(id);
    })();
    storing.add(job);
    void job.finally(() => storing.delete(job));
  };

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
    const runAndRemember = async (token?: string) => {
      let answer: T;
      try {
        answer = await run();
      } catch (err) {
        // Refused: the key is given up at once, so a repeat runs (the request may be sent again)
        // instead of waiting for the claim to run out.
        if (token) await store.release?.(id, token).catch(() => {});
        throw err;
      }
      const remembered = { fingerprint, answer };
      // Stored with the claim's token: a run whose claim was taken over leaves the newer one alone.
      await store.remember(id, remembered, now(), token).catch(() => storeLater(id, remembered, token));
      return { answer, replayed: false };
    };
    // Set before the first await: of two concurrent requests with one key, the second waits for the first.
    while (inFlight.has(id)) await inFlight.get(id)!.catch(() => undefined);
    const attempt = (async () => {
      const given = unstored.get(id);
      if (given) return replay(given);
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
  }

  /** Resolves once every answer being stored is stored or given up. */
  const settled = async (): Promise<void> => {
    while (storing.size > 0) await Promise.all([...storing]);
  };
  return Object.assign(once, {
    /** Answers given whose storing is still being tried. */
    unstored: () => unstored.size,
    settled,
    /** Closing: each answer still unstored gets one last try now, and nothing is tried after. */
    async close(): Promise<void> {
      closing.abort();
      await settled();
    },
  });
}
