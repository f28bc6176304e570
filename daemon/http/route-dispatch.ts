import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';

/**
 * Runs the route groups in order, then one allowedMethods for all of them.
 *
 * Each group stays its own router, so a group's `router.use(guard)` keeps guarding only that
 * group's routes. What is saved per request: a group whose fixed prefix cannot match the path is
 * skipped without running its matcher (routers match case-insensitively, so the test is too), and
 * there is one allowedMethods pass instead of one per group — it reads the routes every group
 * matched (`ctx.matched` accumulates), so its 405 and `Allow` cover all of them.
 */
export function dispatchRoutes(groups: Router[]): Middleware {
  const entries = groups.map((group) => ({ prefix: fixedPrefix(group), routes: group.routes() as unknown as Middleware }));
  const passOn: Middleware = (_ctx, next) => next();
  const allowed = (groups[0]?.allowedMethods() as unknown as Middleware | undefined) ?? passOn;
  return (ctx, next) => {
    const path = ctx.path.toLowerCase();
    const runFrom = (i: number): Promise<unknown> => {
      for (; i < entries.length; i++) {
        const entry = entries[i]!;
        if (entry.prefix === null || path.startsWith(entry.prefix)) return Promise.resolve(entry.routes(ctx, () => runFrom(i + 1)));
      }
      return answerWrongMethod(ctx, next, allowed);
    };
    return runFrom(0);
  };
}

/** The group's prefix, lower-cased, when it is a plain path; null (always run) when it has parameters or none. */
function fixedPrefix(group: Router): string | null {
  const prefix = group.opts.prefix;
  if (!prefix || /[:(*?{]/.test(prefix)) return null;
  return prefix.toLowerCase();
}

/**
 * allowedMethods sets 405 (or 501 for a method no route uses) and the Allow header; the answer
 * still needs our JSON body. Both are the client's mistake, so both are a 405, never a 5xx; a
 * method on a path no route has is a 404.
 */
async function answerWrongMethod(ctx: Parameters<Middleware>[0], next: () => Promise<unknown>, allowed: Middleware): Promise<void> {
  await allowed(ctx, next);
  if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
    const allow = String(ctx.response.get('Allow'));
    ctx.remove('Allow');
    if (!allow) throw new ApiError(404, ErrorCode.routeNotFound, `No route for ${ctx.method} ${ctx.path}.`);
    throw new ApiError(405, ErrorCode.methodNotAllowed, `${ctx.method} is not supported on ${ctx.path}; it takes ${allow}.`, {}, { Allow: allow });
  }
}
