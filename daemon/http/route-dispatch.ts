import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';
import { routeTable, type Layer } from './route-table.js';
import { matchUseLayersAsRoutes } from './use-layer-case.js';

/**
 * Runs the route groups in order, then one allowedMethods for all of them.
 *
 * Each group stays its own router, so a group's `router.use(guard)` keeps guarding only that
 * group's routes. What is saved per request: only the groups that have a route whose path
 * matches the request run (a router that has none would only record its path-matching `use`
 * layers and call next, which changes nothing: allowedMethods reads methods from route layers
 * only). Which groups those are is decided by the routers' own layer matchers — so exactly as
 * each router would decide — once per distinct path and then remembered (see groupsForPath).
 * There is one allowedMethods pass instead of one per group — it reads the routes every group
 * matched (`ctx.matched` accumulates), so its 405 and `Allow` cover all of them.
 * A request to a fixed route path takes a table built here instead (see routeTable): the same
 * middleware, composed once. The groups' routes must all be registered before this is called.
 */
export function dispatchRoutes(groups: Router[]): Middleware {
  for (const group of groups) matchUseLayersAsRoutes(group);
  const entries = groups.map((group) => group.routes() as unknown as Middleware);
  const groupsFor = groupsForPath(groups);
  const passOn: Middleware = (_ctx, next) => next();
  const allowed = (groups[0]?.allowedMethods() as unknown as Middleware | undefined) ?? passOn;
  const table = routeTable(groups, groupsFor);
  return (ctx, next) => {
    const known = table.get(ctx.method)?.get(ctx.path);
    if (known) return known(ctx, next);
    const candidates = groupsFor(ctx.path);
    const runFrom = (i: number): Promise<unknown> => {
      if (i < candidates.length) return Promise.resolve(entries[candidates[i]!]!(ctx, () => runFrom(i + 1)));
      return answerWrongMethod(ctx, next, allowed);
    };
    return runFrom(0);
  };
}

/** Distinct paths remembered; past this the memo starts over (ids in paths make the set open-ended). */
const MEMO_PATHS = 4096;
/** Longer paths are matched every time rather than remembered, so the memo stays small (≤ ~1 MiB of keys). */
const MEMO_PATH_CHARS = 256;

/**
 * The indexes (in order) of the groups with a route layer matching `path`, by the layers' own
 * `match` (the regexp the router tests). A group restricted to a host is always a candidate:
 * its router decides with the request's Host, which a path memo cannot see.
 */
function groupsForPath(groups: Router[]): (path: string) => number[] {
  const routeLayers = groups.map((group) =>
    group.host ? null : (group.stack as unknown as Layer[]).filter((layer) => layer.methods.length > 0),
  );
  const compute = (path: string) =>
    routeLayers.flatMap((layers, i) => (!layers || layers.some((l) => l.match(path)) ? [i] : []));
  const memo = new Map<string, number[]>();
  return (path) => {
    if (path.length > MEMO_PATH_CHARS) return compute(path);
    let found = memo.get(path);
    if (!found) {
      if (memo.size >= MEMO_PATHS) memo.clear();
      memo.set(path, (found = compute(path)));
    }
    return found;
  };
}

/**
 * allowedMethods sets 405 (or 501 for a method no route uses) and the Allow header; the answer
 * still needs our JSON body. Both are the client's mistake, so both are a 405, never a 5xx; a
 * method on a path no route has is a 404.
 */
export async function answerWrongMethod(
  ctx: Parameters<Middleware>[0],
  next: () => Promise<unknown>,
  allowed: Middleware,
): Promise<void> {
  await allowed(ctx, next);
  if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
    const allow = String(ctx.response.get('Allow'));
    ctx.remove('Allow');
    if (!allow) throw new ApiError(404, ErrorCode.routeNotFound, `No route for ${ctx.method} ${ctx.path}.`);
    throw new ApiError(
      405,
      ErrorCode.methodNotAllowed,
      `${ctx.method} is not supported on ${ctx.path}; it takes ${allow}.`,
      {},
      { Allow: allow },
    );
  }
}
