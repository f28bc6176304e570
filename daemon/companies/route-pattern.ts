import { Router } from '@koa/router';
import type { Context } from 'koa';
import { companyRoutes } from '../company/index.js';

interface MatchedLayer {
  path: string | RegExp;
  methods: string[];
}

/**
 * The pattern of the route that will answer this request (`/api/events/:id`), read while the
 * router's own middleware runs. Not `ctx._matchedRoute`: in a router's middleware that is still the
 * middleware layer's own pattern, and once set for a route it names the *last* match, where
 * @koa/router runs the *first* (for `POST /api/events/trigger` it would say `/api/events/:id`, a
 * route needing another scope). `ctx.matched` lists the layers whose path matched, in the order
 * they run; the first with this method is the route that answers (the Company's handlers never
 * pass a request on). Null when none: a middleware then has no route to decide about.
 */
export function routePattern(ctx: Context): string | null {
  const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
  for (const layer of (ctx.matched ?? []) as MatchedLayer[]) {
    if (typeof layer.path === 'string' && layer.methods.includes(method)) return layer.path;
  }
  return null;
}

let companyRouter: Router | null = null;

/**
 * The pattern of the Company route that would answer `method path`, found the way the tenant
 * router finds it (its own matcher, first route with the method): what `explain` asks about a
 * REST operation. Null when no Company route answers it.
 */
export function companyRoutePattern(method: string, path: string): string | null {
  companyRouter ??= registerCompanyRoutes();
  const verb = method === 'HEAD' ? 'GET' : method;
  const { path: matched } = companyRouter.match(path, verb);
  for (const layer of matched as MatchedLayer[]) {
    if (typeof layer.path === 'string' && layer.methods.includes(verb)) return layer.path;
  }
  return null;
}

function registerCompanyRoutes(): Router {
  const router = new Router();
  companyRoutes(router);
  return router;
}
