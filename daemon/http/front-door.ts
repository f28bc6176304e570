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
  const { log, now, body } = options;
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
