import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * First in the chain: gives every request an id (the client's `X-Request-Id` when it is sane),
 * echoes it on the answer, and writes one access-log line when the answer is done —
 * including answers produced by the error renderer further in.
 */
export function requestLog(log: Logger, now: () => number): Middleware {
  return async function logRequest(ctx, next) {
    const given = ctx.get('X-Request-Id');
    const id = CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
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
