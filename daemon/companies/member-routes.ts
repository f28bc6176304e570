import { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import { roleBody, transferBody } from '../../shared/schemas/members.js';
import type { Deps } from '../deps.js';
import { conflicting, missing } from '../domain-error.js';
import { validate } from '../http/validate.js';
import type { CompanyRecord } from '../store/types.js';
import { companyDeleteRoute } from './company-delete-route.js';
import { invitationRoutes } from './invitation-routes.js';
import { teamGuard, teamOf } from './team-guard.js';

const notAMember = (userId: string) => missing(`${userId} is not a member of this Company.`, ErrorCode.memberNotFound);
const ownerFixed = () =>
  conflicting(
    "The owner's role cannot be changed and the owner cannot be removed: hand the Company over with POST /api/companies/{id}/transfer first.",
    ErrorCode.ownerRoleFixed,
  );

/**
 * A Company's people: `GET …/members` (any member), `PATCH|DELETE …/members/{user_id}` (admins and
 * the owner), `POST …/leave` (anyone but the owner), `POST …/transfer` (the owner), and the
 * invitations (invitation-routes.ts). Every route passes teamGuard, which asks the one permission
 * check with the caller's role as read on this request. There is always exactly one owner: the
 * owner's role changes only by a transfer, which makes the old owner an admin in the same write.
 */
export function memberRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/companies/:id' });
  const guard = teamGuard(deps);

  router.get('/members', guard, async (ctx) => {
    const { company } = teamOf(ctx);
    const owner = await deps.stores.users.findById(company.owner_id);
    const rows = await deps.stores.members.listMembers(company.id);
    const members = await Promise.all(
      rows.map(async (m) => ({
        user_id: m.user_id,
        email: (await deps.stores.users.findById(m.user_id))?.email ?? null,
        role: m.role,
        joined_at: m.created_at,
      })),
    );
    ctx.body = {
      members: [
        { user_id: company.owner_id, email: owner?.email ?? null, role: 'owner', joined_at: company.created_at },
        ...members,
      ],
    };
  });

  router.patch('/members/:user_id', guard, async (ctx) => {
    const { company } = teamOf(ctx);
    const { role } = validate(roleBody, ctx.request.body);
    const target = ctx.params.user_id!;
    if (target === company.owner_id) throw ownerFixed();
    const changed = await deps.stores.members.setRole(company.id, target, role);
    if (!changed) throw notAMember(target);
    ctx.body = { ok: true, member: { user_id: target, role: changed.role } };
  });

  router.delete('/members/:user_id', guard, async (ctx) => {
    const { company } = teamOf(ctx);
    const target = ctx.params.user_id!;
    if (target === company.owner_id) throw ownerFixed();
    if (!(await deps.stores.members.remove(company.id, target))) throw notAMember(target);
    ctx.body = { ok: true, user_id: target, removed: true, keys: await keysMadeBy(deps, company, target) };
  });

  router.post('/leave', guard, async (ctx) => {
    const { user, company, role } = teamOf(ctx);
    if (role === 'owner')
      throw conflicting(
        'The owner cannot leave: hand the Company over first (POST /api/companies/{id}/transfer), then leave.',
        ErrorCode.ownerMustTransfer,
      );
    if (!(await deps.stores.members.remove(company.id, user.id))) throw notAMember(user.id);
    ctx.body = { ok: true, left: true, company_id: company.id, keys: await keysMadeBy(deps, company, user.id) };
  });

  router.post('/transfer', guard, async (ctx) => {
    const { user, company } = teamOf(ctx);
    const { user_id } = validate(transferBody, ctx.request.body);
    const outcome = await deps.stores.members.transfer(
      company.id,
      user.id,
      user_id,
      new Date(deps.clock.now()).toISOString(),
    );
    if (!outcome.ok && outcome.reason === 'name_taken')
      throw conflicting(
        `${user_id} already owns a Company named '${company.name}': one of the two must be renamed first.`,
        ErrorCode.companyNameTaken,
      );
    if (!outcome.ok && outcome.reason === 'not_member') throw notAMember(user_id);
    // Ownership moved between our read and the write (another transfer won): the caller is no longer the owner.
    if (!outcome.ok) throw conflicting('You are no longer the owner of this Company.', ErrorCode.ownerRoleFixed);
    ctx.body = { ok: true, company_id: company.id, owner_id: user_id, your_role: 'admin' };
  });

  invitationRoutes(deps, router, guard);
  companyDeleteRoute(deps, router, guard);
  return router;
}

/**
 * The Company's keys the person made: they keep working after the person goes (they are the
 * Company's), and the answer lists them so an admin can decide whether to revoke them.
 */
async function keysMadeBy(deps: Deps, company: CompanyRecord, userId: string) {
  const keys = (await deps.stores.keys.listCompanyKeys(company.id)).filter((k) => k.user_id === userId);
  return keys.map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_by: k.user_id,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    scopes: k.scopes ?? null,
    expires_at: k.expires_at ?? null,
  }));
}
