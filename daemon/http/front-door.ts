import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { ApiError } from './api-error.js';
import { readJsonBody, readsBody, type BodyOptions } from './body.js';
import { renderError } from './error-renderer.js';
import { createHostCheck } from './host-guard.js';
import { assignRequestId, createRequestIds, logAnswer } from './request-log.js';
import { refuseUnstorableUrl } from './url-text.js';

export interface FrontDoorOptions {
  log: Logger;
  now: () => number;
  config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts'>;
  body: BodyOptions;
  /** Request ids; tests pass their own. */
  nextId?: () => string;
}

/**
 * What every request passes through before the routes, in this order:
 *   request id → (error renderer around all of:) Host check → URL text → JSON body → routes → 404
 * and, once answered (an error included), one access-log line.
 *
 * One middleware rather than one per step: each Koa middleware costs a promise, a dispatch closure
 * and a microtask per request, on every route. The steps themselves live in their own files
 * (request-log, error-renderer, host-guard, url-text, body) and keep their own tests; this is only
 * their order.
 */
export function frontDoor(options: FrontDoorOptions): Middleware {
  const { log, now } = options;
  // Both answers depend on the path alone and are asked on every POST: worked out once per path.
  const body: BodyOptions = {
    limitFor: rememberByPath(options.body.limitFor),
    passThrough: options.body.passThrough && rememberByPath(options.body.passThrough),
  };
  const nextId = options.nextId ?? createRequestIds();
  const checkHost = createHostCheck(options.config);
  return async function frontDoor(ctx, next) {
    const id = assignRequestId(ctx, nextId);
    const started = now();
    try {
      checkHost(ctx);
      refuseUnstorableUrl(ctx);
      if (readsBody(ctx, body)) await readJsonBody(ctx, body);
      await next();
      // Nothing answered (after allowedMethods had its chance at a 405): the JSON 404.
      if (ctx.respond !== false && ctx.status === 404 && ctx.body == null) {
        throw new ApiError(404, ErrorCode.routeNotFound, `No route for ${ctx.method} ${ctx.path}.`);
      }
    } catch (err) {
      renderError(ctx, err, log);
    } finally {
      logAnswer(log, ctx, id, now() - started);
    }
  };
}

/** Distinct paths remembered; past this the memo starts over (ids in paths make the set open-ended). */
const MEMO_PATHS = 4096;
/** Longer paths are worked out every time, so the memo stays small. */
const MEMO_PATH_CHARS = 256;

/** `decide(path)`, remembered for the paths requests use again (a pure function of the path). */
function rememberByPath<T>(decide: (path: string) => T): (path: string) => T {
  const memo = new Map<string, T>();
  return (path) => {
    if (path.length > MEMO_PATH_CHARS) return decide(path);
    let found = memo.get(path);
    if (found === undefined) {
      if (memo.size >= MEMO_PATHS) memo.clear();
      found = decide(path);
      memo.set(path, found);
    }
    return found;
  };
}
