import { Router } from '@koa/router';
import { companyBody } from '../../shared/schemas/companies.js';
import type { Deps } from '../deps.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { validate } from '../http/validate.js';
import { companyView, createCompany, memberCompanyView } from './companies.js';

/**
 * `POST /api/companies {name}` → 201 `{ ok, id, name, created_at, role: "owner" }`; `GET
 * /api/companies` → `{ companies }`: every Company the caller owns or belongs to, with their role
 * (CONTRACT §4). A Company's people are member-routes.ts's.
 */
export function companiesRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/companies' });
  const guard = requireUser(deps);

  router.post('/', guard, async (ctx) => {
    const { name } = validate(companyBody, ctx.request.body);
    const company = await createCompany(deps, userOf(ctx).user, name);
    // Open its runtime now (its scheduler runs from the start) and give it the default schedules, paused.
    // The Company exists either way: a failure here is logged, never answered as a failed create.
    try {
      const runtime = await deps.runtimes.open({ id: company.id, name: company.name, owner_id: company.owner_id });
      await runtime.seedDefaults();
    } catch (err) {
      deps.log.error('could not seed the default schedules of a new Company', {
        company_id: company.id,
        err: String((err as Error)?.message ?? err),
      });
    }
    ctx.status = 201;
    ctx.body = { ok: true, ...companyView(company), role: 'owner', owner_id: company.owner_id };
  });

  router.get('/', guard, async (ctx) => {
    ctx.body = { companies: (await deps.stores.members.companiesOf(userOf(ctx).user.id)).map(memberCompanyView) };
  });

  return router;
}
