import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Logger } from '../logger.js';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id (the client's `X-Request-Id` when it is sane, else a new one), echoed on the
 * answer and kept on `ctx.state.requestId` for the error renderer and the access log.
 */
export function assignRequestId(ctx: Context, nextId: () => string): string {
  const given = ctx.get('X-Request-Id');
  const id = given && CLIENT_REQUEST_ID.test(given) ? given : nextId();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  return id;
}

/** Ids written into the line as they are: nothing in them needs escaping in a JSON string. */
const PLAIN_ID = /^[A-Za-z0-9._-]*$/;

/**
 * The access-log line of an answered request: method, path, status, its id and how long it took.
 * The fields are written as the logger writes `{ request_id, ms }` (`{"request_id":"…","ms":3}`),
 * formatted here by hand: on every request, JSON.stringify of a fresh object cost about as much as
 * the rest of the line. An id with anything that would need escaping goes through JSON.stringify.
 */
export function logAnswer(log: Logger, ctx: Context, id: string, ms: number): void {
  const quotedId = PLAIN_ID.test(id) ? `"${id}"` : JSON.stringify(id);
  const shownMs = Number.isFinite(ms) ? String(ms) : 'null';
  log.info(`${ctx.method} ${ctx.path} ${ctx.status} {"request_id":${quotedId},"ms":${shownMs}}`);
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
