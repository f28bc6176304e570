import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { RouteRegistrar } from '../../http/route-registrar.js';

/**
 * One compiled router for every Company runtime of the process. Each runtime registers the same
 * routes (its handlers close over its own services), and compiling ~50 paths per runtime made a
 * daemon's start and memory grow with its Companies (a team daemon opens every one). A runtime now
 * registers on a recorder, which keeps the handlers and compiles nothing; the first runtime of a
 * given route list builds the one real router, whose handlers call the handlers of the runtime the
 * request is for (set on `ctx.state` by `routesOf`). Runtimes whose route lists differ (none today)
 * get a router of their own shape, so a request always reaches its own runtime's handler.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

interface Recorded {
  method: Method;
  path: string;
  handlers: Middleware[];
}

export interface RuntimeRoutes {
  /** Routes a request to this runtime's handlers (404 falls through to `next`, as a router's does). */
  routes: Middleware;
  /** 405 with `Allow` for a path that exists with other methods. */
  allowed: Middleware;
  /** The compiled router (shared): what route listings read. */
  router: Router;
}

type Compiled = { routes: Middleware; allowed: Middleware; router: Router };
/** Route shapes seen, bounded: a shape is fixed by code, so there are only ever a few. */
const shapes = new Map<string, Compiled>();
const MAX_SHAPES = 16;
/** Where a request finds the handlers of its runtime. */
const OWN = Symbol('svc.runtimeHandlers');

/** Runs `register` against a recorder standing in for a Router; answers this runtime's routes. */
export function routesOf(register: (router: RouteRegistrar) => void): RuntimeRoutes {
  const recorded: Recorded[] = [];
  const recorder = Object.fromEntries(
    METHODS.map((method) => [
      method,
      (path: unknown, ...handlers: unknown[]) => {
        // Only (path, ...handlers): a named route or a path pattern object would be recorded wrong.
        if (typeof path !== 'string' || !path.startsWith('/') || handlers.some((h) => typeof h !== 'function'))
          throw new Error(`runtime route ${method.toUpperCase()} ${String(path)}: give a path and handlers only`);
        recorded.push({ method, path, handlers: handlers as Middleware[] });
        return recorder;
      },
    ]),
  );
  register(recorder as unknown as RouteRegistrar);
  const shape = recorded.map((r) => `${r.method} ${r.path} ${r.handlers.length}`).join('\n');
  let shared = shapes.get(shape);
  if (!shared) {
    shared = compile(recorded);
    if (shapes.size < MAX_SHAPES) shapes.set(shape, shared);
  }
  const { routes, allowed, router } = shared;
  return {
    routes: (ctx, next) => {
      (ctx.state as Record<symbol, Recorded[]>)[OWN] = recorded;
      return routes(ctx, next);
    },
    allowed,
    router,
  };
}

function compile(recorded: Recorded[]): Compiled {
  const router = new Router();
  recorded.forEach((r, i) => {
    // The i-th route's j-th handler of whichever runtime the request is for.
    const handlers = r.handlers.map(
      (_, j): Middleware =>
        (ctx, next) =>
          (ctx.state as Record<symbol, Recorded[]>)[OWN]![i]!.handlers[j]!(ctx, next),
    );
    router[r.method](r.path, ...(handlers as [Middleware]));
  });
  // Not `throw: true`: its 501 for a method no route uses (TRACE, PROPFIND…) would render as a 500.
  return {
    routes: router.routes() as unknown as Middleware,
    allowed: router.allowedMethods() as unknown as Middleware,
    router,
  };
}
