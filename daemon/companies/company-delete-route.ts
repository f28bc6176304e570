import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { conflicting } from '../domain-error.js';
import { unknownCompany } from './company-errors.js';
import { teamOf } from './team-guard.js';

/**
 * `DELETE /api/companies/{id}` (the owner only: teamGuard asks for `company:delete`, which no
 * other role holds). One write removes the Company with its memberships, pending invitations and
 * secret keys, so from the next request on, every daemon answers its keys 401 and its members 404;
 * then its runtime is closed here and its records deleted (data folder, or rows in team mode).
 * The audit trail keeps the Company's stream: it records what happened, deletion included.
 */
export function companyDeleteRoute(deps: Deps, router: Router, guard: Middleware): void {
  router.delete('/', guard, async (ctx) => {
    const { user, company } = teamOf(ctx);
    const removed = await deps.stores.companies.remove(company.id, user.id);
    if (!removed) {
      // Between the guard's read and the write, another request deleted it or handed it over.
      if (!(await deps.stores.companies.findById(company.id))) throw unknownCompany(company.id);
      throw conflicting('You are no longer the owner of this Company.', ErrorCode.ownerRoleFixed);
    }
    try {
      await deps.runtimes.discard(company.id);
    } catch (err) {
      // The Company is gone either way (nothing can reach its runtime any more): what is left is
      // disk or rows to reclaim, which the log names.
      deps.log.error('could not delete the runtime of a deleted Company', {
        company_id: company.id,
        err: String((err as Error)?.message ?? err),
      });
    }
    ctx.body = {
      ok: true,
      id: company.id,
      name: company.name,
      deleted: true,
      members_removed: removed.members.length,
      invitations_revoked: removed.invitations,
      keys_revoked: removed.keys.length,
    };
  });
}
