import Koa from 'koa';
import { Router } from '@koa/router';
import { ErrorCode } from '../shared/errors.js';
import type { Deps } from './deps.js';
import { devRoutes } from './dev/routes.js';
import { healthRoutes } from './health/routes.js';
import { ApiError } from './http/api-error.js';
import { parseJsonBody } from './http/body.js';
import { errorRenderer } from './http/error-renderer.js';
import { requestLog } from './http/request-log.js';

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

/**
 * All route groups as one router: their layers are merged into a single table, so a request is
 * matched once instead of once per group, and one allowedMethods answers 405/501 for all of them.
 */
function dispatchRoutes(groups: Router[]): Koa.Middleware {
  const root = new Router();
  for (const group of groups) root.use(group.routes());
  const routes = root.routes() as unknown as Koa.Middleware;
  const allowed = root.allowedMethods() as unknown as Koa.Middleware;
  return (ctx, next) =>
    routes(ctx, async () => {
      await allowed(ctx, next);
      // allowedMethods set 405 (or 501 for a method no route uses) and the Allow header; the answer
      // still needs our JSON body. Both are the client's mistake, so both are a 405: never a 5xx.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
        const allow = String(ctx.response.get('Allow'));
        ctx.remove('Allow');
        if (!allow) throw new ApiError(404, ErrorCode.routeNotFound, `No route for ${ctx.method} ${ctx.path}.`);
        throw new ApiError(405, ErrorCode.methodNotAllowed, `${ctx.method} is not supported on ${ctx.path}; it takes ${allow}.`, {}, { Allow: allow });
      }
    });
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
