import { Router } from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { forbidden } from '../domain-error.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { bearerToken } from '../http/bearer.js';
import { authenticateKeys } from '../access/key-guard.js';
import { checkAccess, type Principal } from '../access/permission.js';
import type { RouteScopeTable } from '../access/operation-scopes.js';
import { refusalOf } from '../access/refusal.js';
import { routePattern } from './route-pattern.js';
import type { Role } from '../../shared/roles.js';
import type { UserRecord } from '../store/types.js';
import { notYours, unknownCompany } from './company-errors.js';
import { companyRoutes, enterCompany, type CompanyRef, type TenantCaller } from '../company/index.js';
import { companyRequired, readCompanySelector } from './tenant-selection.js';

/**
 * The Company routes of the daemon, behind the one `tenant()` middleware. @koa/router runs a
 * router's middleware only for a request one of its routes matched by path and method, so an
 * unknown path (or a known one with another method) is a 404 (or 405) before any credential is
 * read, and a Company route never runs without a caller and a Company.
 */
export function tenantRoutes(deps: Deps): Router {
  const router = new Router();
  router.use(tenant(deps));
  companyRoutes(router);
  return router;
}

/**
 * Authenticate (a session JWT, or a secret key with its tier gate) → select the Company
 * (X-Company, X-Entity, company_id, trust_id) → the caller's role in it (one store read, never
 * cached, so a removal or a lowered role holds from the next request on every daemon) → may this
 * role (or this key's scopes) use this route → open its runtime and put caller and runtime on the
 * request for the Company's routes.
 */
export function tenant(deps: Deps, routeScopes?: RouteScopeTable): Middleware {
  const userGuard = requireUser(deps);
  // May this caller use this route at all (its scope)? Asked right after authentication, before
  // any Company is looked up or opened. A route no row of the scope table covers is refused.
  const assertAllowed = (ctx: Context, principal: Principal) => {
    const route = routePattern(ctx) ?? ctx.path;
    const verdict = checkAccess(
      principal,
      { kind: 'rest', method: ctx.method, route, table: routeScopes },
      deps.clock.now(),
    );
    if (!verdict.allowed) throw refusalOf(verdict, principal.user.tier);
  };
  return async function tenant(ctx, next) {
    if (bearerToken(ctx)?.startsWith('sk_')) {
      const key = await authenticateKeys(deps, ctx);
      ctx.state.keyAuth = key;
      assertAllowed(ctx, key.principal);
      const company = selectForSecretKey(ctx, key.company);
      return enter(deps, ctx, { user: key.user, company, via: 'secret_key', keyId: key.keyId }, next);
    }
    await userGuard(ctx, async () => {
      const { user } = userOf(ctx);
      const { company, role } = await selectForUser(deps, ctx, user);
      assertAllowed(ctx, { kind: 'session', user, role });
      await enter(deps, ctx, { user, company, via: 'session', role }, next);
    });
  };
}

/**
 * THE seam between selection and a Company's runtime: the only place a request crosses it. To run
 * runtimes in their own processes, only `deps.runtimes` (a RuntimeHost) changes.
 */
async function enter(deps: Pick<Deps, 'runtimes'>, ctx: Context, tenant: TenantCaller, next: Next): Promise<void> {
  enterCompany(ctx, tenant, await deps.runtimes.open(tenant.company));
  await next();
}

/** A secret key reaches its own Company only; naming any other (known or not) is refused alike. */
function selectForSecretKey(ctx: Context, own: CompanyRef): CompanyRef {
  const selector = readCompanySelector(ctx);
  if (selector && selector.id !== own.id) {
    throw forbidden(
      `This secret key belongs to Company ${own.id}; it cannot reach Company ${selector.id}.`,
      ErrorCode.companyForbidden,
    );
  }
  return own;
}

/** The selected Company and the user's role in it: someone not (or no longer) a member is refused. */
async function selectForUser(
  deps: Pick<Deps, 'stores'>,
  ctx: Context,
  user: UserRecord,
): Promise<{ company: CompanyRef; role: Role }> {
  const selector = readCompanySelector(ctx);
  if (!selector) throw companyRequired();
  const access = await deps.stores.members.accessOf(selector.id, user.id);
  if (!access) throw unknownCompany(selector.id);
  if (!access.role) throw notYours(selector.id);
  const { company } = access;
  return { company: { id: company.id, name: company.name, owner_id: company.owner_id }, role: access.role };
}
