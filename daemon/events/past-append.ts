/**
 * A request that emits has a point of no return: once its event is appended, running it again
 * would append a second one. An error thrown after that point carries the event's id, so the
 * Idempotency-Key runner (idempotency.ts) remembers the failure instead of giving the key up.
 */
const APPENDED = Symbol('svc.appended');

/** The id of the event appended before `err` was thrown, if it was thrown past that point. */
export function appendedBefore(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const id = (err as { [APPENDED]?: unknown })[APPENDED];
  return typeof id === 'string' ? id : undefined;
}

/** Runs what follows the append of `eventId`; whatever it throws is marked with the event. */
export async function afterAppend<T>(eventId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const marked = typeof err === 'object' && err !== null ? err : new Error(String(err));
    (marked as { [APPENDED]?: string })[APPENDED] = eventId;
    throw marked;
  }
}
