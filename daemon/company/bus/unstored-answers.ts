import { setTimeout as sleep } from 'node:timers/promises';
import type { IdempotencyStore, RememberedAnswer } from '../../store/runtime-types.js';

/** Pauses between passes over the answers the store refused: from 25 ms, doubling to 1 s. */
const FIRST_TRY_MS = 25;
const LAST_TRY_MS = 1_000;
/**
 * A claim's last second is left alone: past it another daemon may take the key over and run the
 * request again, and from then on only the store may answer repeats, never this daemon's memory.
 */
export const CLAIM_MARGIN_MS = 1_000;
/** Answers kept unstored at most (per Company), the oldest given up first: a store refusing for long must not grow memory. */
export const MAX_UNSTORED = 1_000;
/** How long closing waits for the last pass: a database that does not answer must not hold the shutdown. */
const LAST_PASS_MS = 2_000;

export interface UnstoredOptions {
  /** Waits `ms` before the next pass; resolves early when `signal` aborts (tests: a fake). */
  pause?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** An answer the store refused, and one given up: worth an operator's attention (a repeat may run again). */
  onProblem?: (message: string, fields: Record<string, unknown>) => void;
  /** How long closing waits for its last pass (default LAST_PASS_MS). */
  lastPassMs?: number;
}

const pauseFor = (ms: number, signal: AbortSignal) =>
  sleep(ms, undefined, { signal }).catch(() => {
    // Aborted: the runner is closing and makes its last pass at once.
  });

interface Unstored {
  remembered: RememberedAnswer;
  /** The claim the answer ends (stores with claims). */
  token?: string;
  /** Past this (the daemon's clock) the answer is given up: the claim's end less a margin, or the store's window. */
  until: number;
}

/**
 * Answers of keyed requests that ran but whose answer the store refused (the disk or the database
 * went away as the request answered). The request did its work, so its caller got the answer; the
 * daemon keeps it here, replays it to repeats sent to it, and stores it as soon as the store takes
 * it: one pass over all of them, oldest first, from 25 ms doubling to 1 s, and a last one at close.
 * With claims that lasts while the claim does (CLAIM_MARGIN_MS before its end): a repeat on another
 * daemon meanwhile waits for the claim, and a store made after another daemon took the claim over
 * changes nothing (`remember` with the token). Without claims (one daemon) it lasts the store's window.
 */
export function createUnstoredAnswers(store: IdempotencyStore, now: () => number, options: UnstoredOptions = {}) {
  const pause = options.pause ?? pauseFor;
  const problem = options.onProblem ?? (() => {});
  /** Answers given but not stored yet, by key, oldest first: what a repeat on this daemon is answered meanwhile. */
  const unstored = new Map<string, Unstored>();
  let storing: Promise<void> | null = null;
  const closing = new AbortController();
  const scopeOf = (id: string) => id.slice(0, id.indexOf('\0'));

  const giveUp = (id: string, why: string) => {
    unstored.delete(id);
    problem('idempotent answer given up: a repeat of its key may run again', { scope: scopeOf(id), why });
  };
  /** One pass, oldest first, until the store refuses one. True when every answer left was stored. */
  const pass = async (): Promise<boolean> => {
    for (const [id, entry] of [...unstored]) {
      if (unstored.get(id) !== entry) continue;
      if (now() >= entry.until) {
        giveUp(id, entry.token ? 'its claim ran out' : 'past the window');
        continue;
      }
      try {
        await store.remember(id, entry.remembered, now(), entry.token);
      } catch {
        return false;
      }
      if (unstored.get(id) === entry) unstored.delete(id);
    }
    return true;
  };
  const storeAll = async () => {
    for (let wait = FIRST_TRY_MS; unstored.size > 0 && !closing.signal.aborted; ) {
      try {
        await pause(wait, closing.signal);
      } catch {
        // A pause that fails is a pause over: the pass goes on.
      }
      if (closing.signal.aborted) return; // close() makes the last pass itself
      wait = (await pass()) ? FIRST_TRY_MS : Math.min(wait * 2, LAST_TRY_MS);
    }
  };
  const kick = () => {
    if (storing || unstored.size === 0 || closing.signal.aborted) return;
    storing = storeAll().finally(() => {
      storing = null;
      kick(); // an answer added as the loop ended
    });
  };
  const storeLater = (
    id: string,
    remembered: RememberedAnswer,
    claim: { token: string; until: number } | undefined,
    err: unknown,
  ) => {
    const why = String((err as Error)?.message ?? err).slice(0, 200);
    problem('idempotent answer not stored yet: the store refused it', { scope: scopeOf(id), err: why });
    if (closing.signal.aborted) return giveUp(id, 'the daemon is closing');
    const until = claim ? claim.until - CLAIM_MARGIN_MS : now() + store.windowMs;
    unstored.delete(id); // a key run again goes to the end: oldest first stays true
    unstored.set(id, { remembered, ...(claim && { token: claim.token }), until });
    if (unstored.size > MAX_UNSTORED) giveUp(unstored.keys().next().value!, 'too many answers unstored');
    kick();
  };
  /** Resolves once no pass is under way (every answer stored, given up, or closing). */
  const settled = async (): Promise<void> => {
    while (storing) await storing;
  };

  return {
    add: storeLater,
    /** The answer kept for `id`, while it may still be replayed. */
    answerOf(id: string): RememberedAnswer | undefined {
      const kept = unstored.get(id);
      return kept && now() < kept.until ? kept.remembered : undefined;
    },
    size: () => unstored.size,
    settled,
    /**
     * Closing: a last pass over the answers still unstored, waited for at most LAST_PASS_MS; what
     * is left then is given up (and logged). Nothing is tried after.
     */
    async close(): Promise<void> {
      closing.abort();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.lastPassMs ?? LAST_PASS_MS)));
      await Promise.race([settled().then(pass), late]);
      clearTimeout(timer);
      for (const id of [...unstored.keys()]) giveUp(id, 'the daemon is closing');
    },
  };
}
