import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { forbidden } from '../domain-error.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { bearerToken } from '../http/bearer.js';
import { authenticateKeys } from '../access/key-guard.js';
import type { UserRecord } from '../store/types.js';
import { notYours, unknownCompany } from './company-errors.js';
import type { CompanyRef, TenantCaller } from '../company/index.js';
import { companyRequired, isTenantPath, readCompanySelector } from './tenant-selection.js';

/**
 * The tenant gateway: every `/api/*` path that is not a non-tenant route is a Company runtime
 * route. Order: authenticate (a session JWT, or a secret key with its tier gate) → select the
 * Company (X-Company, X-Entity, company_id, trust_id) → check it is the caller's → hand off.
 * app.ts mounts it after every router, so it only ever sees requests no router answered.
 */
export function tenantGateway(deps: Deps): Middleware {
  const userGuard = requireUser(deps);
  return async function gateway(ctx, next) {
    if (!isTenantPath(ctx.path)) return next();
    if (bearerToken(ctx)?.startsWith('sk_')) {
      const key = await authenticateKeys(deps, ctx);
      ctx.state.keyAuth = key;
      const company = selectForSecretKey(ctx, key.company);
      return handOff(deps, ctx, { user: key.user, company, via: 'secret_key', keyId: key.keyId });
    }
    await userGuard(ctx, async () => {
      const { user } = userOf(ctx);
      return handOff(deps, ctx, { user, company: await selectForUser(deps, ctx, user), via: 'session' });
    });
  };
}

/**
 * THE seam between the gateway and a Company's runtime: the only line that crosses it. To run
 * runtimes in their own processes, only `deps.runtimes` (a RuntimeHost) changes.
 */
async function handOff(deps: Pick<Deps, 'runtimes'>, ctx: Context, tenant: TenantCaller): Promise<void> {
  ctx.state.tenant = tenant;
  await (await deps.runtimes.open(tenant.company)).handle(ctx);
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

async function selectForUser(deps: Pick<Deps, 'stores'>, ctx: Context, user: UserRecord): Promise<CompanyRef> {
  const selector = readCompanySelector(ctx);
  if (!selector) throw companyRequired();
  const company = await deps.stores.companies.findById(selector.id);
  if (!company) throw unknownCompany(selector.id);
  if (company.owner_id !== user.id) throw notYours(selector.id);
  return { id: company.id, name: company.name, owner_id: company.owner_id };
}
