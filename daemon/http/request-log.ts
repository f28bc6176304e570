import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * First in the chain: gives every request an id (the client's `X-Request-Id` when it is sane),
 * echoes it on the answer, and writes one access-log line when the answer is done —
 * including answers produced by the error renderer further in.
 */
export function requestLog(log: Logger, now: () => number, nextId: () => string = createRequestIds()): Middleware {
  return async function logRequest(ctx, next) {
    const given = ctx.get('X-Request-Id');
    const id = given && CLIENT_REQUEST_ID.test(given) ? given : nextId();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = now();
    try {
      await next();
    } finally {
      log.info(`${ctx.method} ${ctx.path} ${ctx.status}`, { request_id: id, ms: now() - started });
    }
  };
}

/**
 * Request ids: `req_` + 12 random base36 characters fixed per process + a counter. They only
 * correlate a log line with an answer, so they need to be unique, not secret: a counter is
 * cheaper per request than a fresh UUID, and the random prefix keeps ids distinct across restarts.
 */
export function createRequestIds(prefix = randomPrefix()): () => string {
  let counter = 0;
  return () => `req_${prefix}${(counter++).toString(36).padStart(6, '0')}`;
}

function randomPrefix(): string {
  let s = '';
  for (const b of randomBytes(12)) s += (b % 36).toString(36);
  return s;
}
