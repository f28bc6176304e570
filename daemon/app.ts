import Koa from 'koa';
import type { Router } from '@koa/router';
import { ErrorCode } from '../shared/errors.js';
import type { Deps } from './deps.js';
import { devRoutes } from './dev/routes.js';
import { healthRoutes } from './health/routes.js';
import { ApiError } from './http/api-error.js';
import { parseJsonBody } from './http/body.js';
import { errorRenderer } from './http/error-renderer.js';
import { requestLog } from './http/request-log.js';
import { dispatchRoutes } from './http/route-dispatch.js';

/** Routes on these prefixes take the smaller auth body limit (SECURITY.md: 64 KiB). */
const AUTH_PREFIXES = ['/api/auth/', '/api/me/'];

/**
 * The daemon as a Koa app, with no port and no process concerns (those are main.ts's).
 * The middleware order is the whole story of a request:
 *   request id + access log → error renderer → JSON body → 404 fallback → routes.
 */
export function createApp(deps: Deps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy });
  // Errors are rendered and logged by errorRenderer; Koa's own printer would log them twice.
  app.silent = true;

  app.use(requestLog(deps.log, deps.clock.now));
  app.use(errorRenderer(deps.log));
  app.use(
    parseJsonBody({
      limitFor: (path) =>
        AUTH_PREFIXES.some((p) => path.startsWith(p)) ? deps.config.limits.authBodyBytes : deps.config.limits.bodyBytes,
    }),
  );

  app.use(answerUnmatchedWith404);
  app.use(dispatchRoutes(routeGroups(deps)));
  return app;
}

/** Runs the routes, then turns "nothing answered" into the JSON 404 (after allowedMethods had its chance at a 405). */
const answerUnmatchedWith404: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 404 && ctx.body == null) {
    throw new ApiError(404, ErrorCode.routeNotFound, `No route for ${ctx.method} ${ctx.path}.`);
  }
};

function routeGroups(deps: Deps): Router[] {
  return [healthRoutes(), devRoutes(deps)];
}
