import type { Router } from '@koa/router';
import type { Middleware } from 'koa';

/*
 * The route table of http/route-dispatch.ts: for fixed paths, the chain @koa/router would run,
 * worked out once at start with the routers' own matchers.
 */

/** A router layer as far as matching goes. */
export type Layer = { methods: string[]; match(path: string): boolean };

/** The methods a table entry may serve: each router's allowedMethods implements them and answers them no 405 or OPTIONS reply. */
const TABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** What @koa/router 15 keeps on a router and its layers that the table reads (pinned by tests/daemon/http/route-dispatch.test.ts). */
type TableLayer = Layer & {
  path: string | RegExp;
  name?: string | null;
  paramNames: unknown[];
  stack: Middleware[];
  captures(path: string): string[];
  params(path: string, captures: string[], existing?: Record<string, string>): Record<string, string>;
};
type TableRouter = {
  host?: unknown;
  exclusive?: boolean;
  stack: TableLayer[];
  match(path: string, method: string): { path: TableLayer[]; pathAndMethod: TableLayer[]; route: boolean };
  _events?: { _handlers?: unknown };
};

/**
 * A table, built once, of what the routers would run for each fixed route path (no parameter)
 * and each method one of its routes takes: method → path → the whole chain composed once. A
 * request whose exact method and path are in it skips the per-request work of @koa/router —
 * every group's matcher, a `compose` of the matched layers per group, the allowedMethods pass —
 * and runs the same middleware in the same order with the same context the routers would set.
 *
 * Each entry is worked out with the routers' own `match` on that exact path, so it holds what they
 * would decide for it: the groups in order, for each its matched layers (`ctx.matched`, which
 * grows group by group as a guard reading it would see it), `ctx.router`, `ctx.routeMatched`,
 * `ctx._matchedRoute`, and per layer its captures, params and names; a group whose route does not
 * take the method only adds its layers to `ctx.matched` and passes on, as its router does. The
 * allowedMethods pass is left out because it cannot change such a request: its method is one a
 * matched route takes, so it never answers 405, 501 or OPTIONS. Anything else (a parameter in the
 * path, another spelling of the path — case, a trailing slash —, OPTIONS, a router restricted to
 * a host, exclusive, or with not-found handlers) is left to the routers, per request.
 */
export function routeTable(
  groups: Router[],
  groupsFor: (path: string) => number[],
): Map<string, Map<string, Middleware>> {
  const routers = groups as unknown as TableRouter[];
  const table = new Map<string, Map<string, Middleware>>(TABLE_METHODS.map((m) => [m, new Map()]));
  const plain = (r: TableRouter) => !r.host && !r.exclusive && !hasNotFoundHandlers(r);
  for (const router of routers) {
    for (const layer of router.stack) {
      const path = layer.path;
      if (layer.methods.length === 0 || typeof path !== 'string' || !FIXED_PATH.test(path)) continue;
      for (const method of layer.methods) {
        const byPath = table.get(method);
        if (!byPath || byPath.has(path)) continue;
        const hostBound = routers.some((r) => r.host && r.stack.some((l) => l.match(path)));
        const candidates = groupsFor(path).map((i) => routers[i]!);
        if (hostBound || !candidates.every(plain)) continue;
        const chain = chainFor(candidates, path, method);
        if (chain) byPath.set(path, chain);
      }
    }
  }
  return table;
}

/** A route path with no parameter, wildcard or pattern: one concrete path, the one requests send. */
const FIXED_PATH = /^\/[A-Za-z0-9._~/-]*$/;

function hasNotFoundHandlers(router: TableRouter): boolean {
  const handlers = router._events?._handlers;
  if (!(handlers instanceof Map)) return true; // not the router this was written against: leave it the per-request way
  return ((handlers.get('not-found') as unknown[] | undefined)?.length ?? 0) > 0;
}

/** The flat chain the candidate groups would run for `method path`, or null when no group's route takes the method. */
function chainFor(candidates: TableRouter[], path: string, method: string): Middleware | null {
  const steps: Step[] = [];
  const matched: TableLayer[] = [];
  let answered = false;
  let params: Record<string, string> | undefined;
  for (const router of candidates) {
    const found = router.match(path, method);
    matched.push(...found.path);
    const matchedSoFar = [...matched];
    const routeLayer = found.route ? [...found.pathAndMethod].reverse().find((l) => l.methods.length > 0) : undefined;
    // What the router's dispatch sets on entering, before its chain.
    steps.push({
      enter: (ctx) => {
        ctx.matched = [...matchedSoFar];
        ctx.router = router;
        ctx.routeMatched = found.route;
        if (routeLayer) {
          ctx._matchedRoute = routeLayer.path;
          if (routeLayer.name) ctx._matchedRouteName = routeLayer.name;
        }
      },
    });
    if (!found.route) continue;
    answered = true;
    for (const layer of found.pathAndMethod) {
      const captures = layer.captures(path);
      params = layer.params(path, captures, params);
      const layerParams = params;
      steps.push({
        enter: (ctx) => {
          ctx.captures = [...captures];
          const fresh = { ...layerParams };
          (ctx.request as { params?: Record<string, string> }).params = fresh;
          ctx.params = fresh;
          ctx.routerPath = layer.path;
          ctx.routerName = layer.name || undefined;
          ctx._matchedRoute = layer.path;
          if (layer.name) ctx._matchedRouteName = layer.name;
        },
      });
      for (const middleware of layer.stack) steps.push({ middleware });
    }
  }
  return answered ? composeSteps(steps) : null;
}

/** The fields @koa/router's dispatch puts on the context. */
type RoutedContext = Parameters<Middleware>[0] & {
  matched?: TableLayer[];
  router?: unknown;
  routeMatched?: boolean;
  _matchedRoute?: string | RegExp;
  _matchedRouteName?: string;
  captures?: string[];
  params?: Record<string, string>;
  routerPath?: string | RegExp;
  routerName?: string;
};
type Setter = (ctx: RoutedContext) => void;
type Step = { enter: Setter } | { middleware: Middleware };

/**
 * koa-compose over the steps, the context setters run inline before the middleware that follows
 * them (one promise per middleware, as compose makes, none per setter); setters after the last
 * middleware run before the downstream `next`.
 */
function composeSteps(steps: Step[]): Middleware {
  const chain: Middleware[] = [];
  let pending: Setter[] = [];
  const withSetters = (setters: Setter[], run: Middleware): Middleware =>
    setters.length === 0
      ? run
      : (ctx, next) => {
          for (const set of setters) set(ctx);
          return run(ctx, next);
        };
  for (const step of steps) {
    if ('enter' in step) pending.push(step.enter);
    else {
      chain.push(withSetters(pending, step.middleware));
      pending = [];
    }
  }
  const tail = pending;
  return (ctx, next) => {
    let index = -1;
    const dispatch = (i: number): Promise<unknown> => {
      if (i <= index) return Promise.reject(new Error('next() called multiple times'));
      index = i;
      try {
        if (i === chain.length) {
          for (const set of tail) set(ctx);
          return Promise.resolve(next());
        }
        return Promise.resolve(chain[i]!(ctx, () => dispatch(i + 1)));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  };
}
