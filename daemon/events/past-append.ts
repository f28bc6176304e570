import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A request that emits has a point of no return: once one of its events is appended, running it
 * again would append a second. The Idempotency-Key runner (idempotency.ts) runs a request inside
 * `recordingAppends`, and the events bus reports each append it makes (`noteAppended`, in
 * service.ts), whatever route or tool made it: a request that then fails is remembered as having
 * appended, instead of giving its key up to a retry.
 */
interface Appends {
  ids: string[];
  /** An enclosing request (an idempotent emit inside an idempotent route) sees the appends too. */
  outer: Appends | undefined;
}

const current = new AsyncLocalStorage<Appends>();

/** Runs `work`; `ids` receives the id of every event appended meanwhile in its async context. */
export function recordingAppends<T>(ids: string[], work: () => Promise<T>): Promise<T> {
  return current.run({ ids, outer: current.getStore() }, work);
}

/** Called by the events bus after each append. */
export function noteAppended(eventId: string): void {
  for (let at = current.getStore(); at; at = at.outer) at.ids.push(eventId);
}
