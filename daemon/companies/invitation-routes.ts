import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { acceptBody, invitationBody } from '../../shared/schemas/members.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { conflicting, forbidden, invalid, missing } from '../domain-error.js';
import { validate } from '../http/validate.js';
import { normalizeEmail } from '../auth/email-codes.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import type { AcceptOutcome } from '../store/types.js';
import { hashInvitationCode } from '../auth/invite-codes.js';
import { invitationView, inviteToCompany } from './invitations.js';
import { teamOf } from './team-guard.js';

/** `POST|GET …/invitations`, `DELETE …/invitations/{invitation_id}` on the member router (admins and the owner). */
export function invitationRoutes(deps: Deps, router: Router, guard: Middleware): void {
  router.post('/invitations', guard, async (ctx) => {
    const { user, company } = teamOf(ctx);
    const input = validate(invitationBody, ctx.request.body);
    const email = normalizeEmail(input.email);
    const invitee = await deps.stores.users.findByEmail(email);
    const already = invitee && (await deps.stores.members.accessOf(company.id, invitee.id));
    if (already?.role)
      throw conflicting(`${email} is a member of this Company already (${already.role}).`, ErrorCode.alreadyMember);
    const { invitation, replaced } = await inviteToCompany(deps, user, company, email, input.role);
    ctx.status = 201;
    ctx.body = { ok: true, invitation: invitationView(invitation, deps.clock.now()), replaced };
  });

  router.get('/invitations', guard, async (ctx) => {
    const { company } = teamOf(ctx);
    const now = deps.clock.now();
    ctx.body = {
      invitations: (await deps.stores.members.listInvitations(company.id)).map((i) => invitationView(i, now)),
    };
  });

  router.delete('/invitations/:invitation_id', guard, async (ctx) => {
    const { company } = teamOf(ctx);
    const id = ctx.params.invitation_id!;
    if (!(await deps.stores.members.revokeInvitation(company.id, id, isoAt(deps.clock.now()))))
      throw missing(`This Company has no pending invitation ${id}.`, ErrorCode.invitationNotFound);
    ctx.body = { ok: true, id, revoked: true };
  });
}

/**
 * `POST /api/invitations/accept { code }` with the invitee's own full session: the account's
 * address must be the one invited (a forwarded code does not let someone else in).
 */
export function acceptInvitationRoutes(deps: Deps): Router {
  const router = new Router();
  router.post('/api/invitations/accept', requireUser(deps), async (ctx) => {
    const { user } = userOf(ctx);
    const { code } = validate(acceptBody, ctx.request.body);
    const outcome = await deps.stores.members.acceptInvitation(
      hashInvitationCode(code),
      user.id,
      user.email ?? '',
      isoAt(deps.clock.now()),
    );
    if (!outcome.ok) throw acceptRefusal(outcome.reason);
    ctx.body = {
      ok: true,
      company: { id: outcome.company.id, name: outcome.company.name },
      role: outcome.membership.role,
    };
  });
  return router;
}

export function acceptRefusal(reason: Extract<AcceptOutcome, { ok: false }>['reason']) {
  switch (reason) {
    case 'expired':
      return invalid('This invitation expired: ask for a new one.', ErrorCode.invitationExpired);
    case 'wrong_email':
      return forbidden(
        'This invitation was sent to another address: log in with the invited account.',
        ErrorCode.invitationEmailMismatch,
      );
    case 'already_member':
      return conflicting('You are a member of this Company already.', ErrorCode.alreadyMember);
    default:
      return missing(
        'No pending invitation has this code: it was used, revoked or replaced.',
        ErrorCode.invitationNotFound,
      );
  }
}
