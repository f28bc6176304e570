import type { Context, Middleware } from 'koa';
import type { Role } from '../../shared/roles.js';
import type { Deps } from '../deps.js';
import { TEAM_ROUTE_SCOPES } from '../access/operation-scopes.js';
import { checkAccess } from '../access/permission.js';
import { refusalOf } from '../access/refusal.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import type { CompanyRecord, UserRecord } from '../store/types.js';
import { notYours, unknownCompany } from './company-errors.js';
import { routePattern } from './route-pattern.js';

/** Who acts on a Company's people, once teamGuard let the request through. */
export interface TeamCaller {
  user: UserRecord;
  company: CompanyRecord;
  role: Role;
}

/**
 * The guard of `/api/companies/:id/…`: a full session → the Company in the path and the caller's
 * role in it, read in one lookup on this very request (no cache: a member removed or lowered on
 * another daemon is refused here next) → the one permission check with the route's row of
 * TEAM_ROUTE_SCOPES. Not a member: 403 `company_forbidden`; a role without the grant: 403
 * `insufficient_scope` naming it. Use it on each route (not `router.use`), where the path's `:id` is read.
 */
export function teamGuard(deps: Pick<Deps, 'clock' | 'stores' | 'secrets'>): Middleware {
  const userGuard = requireUser(deps);
  return (ctx, next) =>
    userGuard(ctx, async () => {
      const { user } = userOf(ctx);
      const id = ctx.params.id!;
      const access = await deps.stores.members.accessOf(id, user.id);
      if (!access) throw unknownCompany(id);
      if (!access.role) throw notYours(id);
      const route = routePattern(ctx) ?? ctx.path;
      const verdict = checkAccess(
        { kind: 'session', user, role: access.role },
        { kind: 'rest', method: ctx.method, route, table: TEAM_ROUTE_SCOPES },
        deps.clock.now(),
      );
      if (!verdict.allowed) throw refusalOf(verdict);
      ctx.state.team = { user, company: access.company, role: access.role } satisfies TeamCaller;
      await next();
    });
}

export function teamOf(ctx: Context): TeamCaller {
  const team = ctx.state.team as TeamCaller | undefined;
  if (!team) throw new Error(`route ${ctx.path} reads the team caller without teamGuard in front of it`);
  return team;
}
