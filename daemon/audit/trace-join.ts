import type { Context } from 'koa';
import type { KeyAuth } from '../access/key-guard.js';
import { routePattern } from '../companies/route-pattern.js';
import type { EventOrigin } from '../../shared/event-row.js';
import { newCallScope, type CallScope } from '../call-origin.js';
import { checkTraceparent } from './traceparent.js';

/*
 * The trace join of a call made with a key: its scope (the origin the events it appends carry) and
 * what its audit entry says of the trace (the caller's traceparent, the events it set off).
 */

export const traceparentOf = (ctx: Context) => checkTraceparent(ctx.get('traceparent') || undefined);

/** The scope of a call made with a secret key: its origin is known once the key guard has run. */
export function restCallScope(ctx: Context): CallScope {
  let origin: EventOrigin | null | undefined;
  return newCallScope(() => {
    if (origin !== undefined) return origin;
    const key = ctx.state.keyAuth as KeyAuth | undefined;
    const pattern = routePattern(ctx);
    if (!key || pattern === null) return null;
    const trace = traceparentOf(ctx);
    origin = {
      action: 'rest.call',
      target: `${ctx.method} ${pattern}`,
      request_id: (ctx.state.requestId as string | undefined) ?? null,
      actor: { type: 'key', user_id: key.user.id, key_id: key.keyId, client_id: null, grant_id: null },
      traceparent: trace.kind === 'valid' ? trace.traceparent : null,
    };
    return origin;
  });
}

/**
 * The trace join on a call's entry: the events it set off directly (a trace starts at the entry
 * and hangs them under it), and the caller's traceparent — or that one was sent and ignored.
 */
export function traceDetails(
  traceparent: string | null,
  invalid: boolean,
  events: Pick<CallScope, 'emitted' | 'count'> | undefined,
): Record<string, unknown> {
  return {
    ...(traceparent ? { traceparent } : {}),
    ...(invalid ? { traceparent_ignored: 'malformed' } : {}),
    ...(events && events.count > 0
      ? { events: events.emitted, ...(events.count > events.emitted.length ? { event_count: events.count } : {}) }
      : {}),
  };
}
