import { createHash } from 'node:crypto';
import { ErrorCode } from '../../shared/errors.js';
import { conflicting, invalid } from '../domain-error.js';
import type { IdempotencyStore } from '../store/runtime-types.js';

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

/**
 * Runs `run` once per key within the store's window (CONTRACT §8: 24 h): a repeat answers what the
 * first call answered and fires nothing. The same key with a different request is a 409, never the
 * wrong answer. Concurrent repeats wait for the first (one daemon per data folder, so an in-process
 * map suffices). Only answers are remembered: a refused request fired nothing and may be retried.
 */
export function createIdempotentRunner(store: IdempotencyStore, now: () => number) {
  const inFlight = new Map<string, Promise<unknown>>();
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
    // Set before the first await: of two concurrent requests with one key, the second waits for the first.
    while (inFlight.has(id)) await inFlight.get(id)!.catch(() => undefined);
    const attempt = (async () => {
      const seen = await store.get(id, now());
      if (seen) {
        if (seen.fingerprint !== fingerprint) {
          throw conflicting(
            `Idempotency-Key '${key}' was used within the last 24 hours for a different request; use a new key.`,
            ErrorCode.idempotencyKeyReused,
          );
        }
        return { answer: seen.answer as T, replayed: true };
      }
      const answer = await run();
      await store.remember(id, { fingerprint, answer }, now());
      return { answer, replayed: false };
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
