import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventOrigin } from '../shared/event-row.js';

/**
 * The call under way — an MCP tools/call, or a REST call made with a key or token — as the events
 * bus sees it while the call runs: events appended meanwhile carry its origin, and the call notes
 * the ones it set off directly, so its audit entry can name them and a trace can start at it.
 * Carried by async context because events are emitted deep inside services (a quest created
 * emits `quest:created`) that know nothing of requests.
 */
export interface CallScope {
  /** Read when an event is appended: the credential is known only once the route's guard ran. */
  origin(): EventOrigin | null;
  /** Ids of the events the call appended that no other event of the call caused. */
  readonly emitted: string[];
  /** How many such events there were (the list keeps the first MAX_NOTED). */
  count: number;
  /** False once the call answered: work it left behind (a timer, a retry) is not the call's. */
  open: boolean;
}

/** A call that emits more than this keeps the first ones' ids on its entry, and the count. */
export const MAX_NOTED = 100;

const calls = new AsyncLocalStorage<CallScope>();

export function newCallScope(origin: () => EventOrigin | null): CallScope {
  return { origin, emitted: [], count: 0, open: true };
}

/** Runs `fn` as (part of) the call; the scope closes when the caller says so, not here (a batch shares one request). */
export function runInCall<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return calls.run(scope, fn);
}

/** The call running now, if one is and it has not answered yet. */
export function currentCall(): CallScope | undefined {
  const scope = calls.getStore();
  return scope?.open ? scope : undefined;
}

/** Notes an event the call appended; `causedWithin` says whether an event of the same call caused it. */
export function noteEmitted(scope: CallScope, eventId: string, causedWithin: boolean): void {
  if (causedWithin) return;
  scope.count++;
  if (scope.emitted.length < MAX_NOTED) scope.emitted.push(eventId);
}
