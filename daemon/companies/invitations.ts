import type { AssignableRole } from '../../shared/roles.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { generateInviteCode, hashInvitationCode } from '../auth/invite-codes.js';
import type { CompanyRecord, InvitationRecord, UserRecord } from '../store/types.js';

/** How long an invitation can be accepted. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** Makes the invitation (replacing a pending one to the same address) and mails its code and link. */
export async function inviteToCompany(
  deps: Pick<Deps, 'stores' | 'clock' | 'ids' | 'random' | 'mailer' | 'config'>,
  inviter: UserRecord,
  company: CompanyRecord,
  email: string,
  role: AssignableRole,
): Promise<{ invitation: InvitationRecord; replaced: string | null }> {
  const code = generateInviteCode(deps.random);
  const now = deps.clock.now();
  const invitation: InvitationRecord = {
    id: deps.ids('inv'),
    company_id: company.id,
    email,
    role,
    code_hash: hashInvitationCode(code),
    invited_by: inviter.id,
    created_at: isoAt(now),
    expires_at: isoAt(now + INVITATION_TTL_MS),
    ended_at: null,
    ended_as: null,
    accepted_by: null,
  };
  const { replaced } = await deps.stores.members.invite(invitation);
  const link = `${deps.config.publicUrl}/#/join/${code}`;
  const who = inviter.display_name ? `${inviter.display_name} (${inviter.email})` : (inviter.email ?? 'A member');
  await deps.mailer.send({
    to: email,
    subject: `You are invited to the Company ${company.name} on svc`,
    text:
      `${who} invited you to the Company ${company.name} on svc as ${role}.\n` +
      `Your invitation code is ${code}; it is valid for 7 days.\n` +
      `Have an account? Log in and run: svc companies join ${code} (or open ${link}).\n` +
      `New to svc? Sign up with this address and the code as your invite code: svc signup --invite ${code}\n` +
      'If you did not expect this, ignore this e-mail.',
    code,
    link,
  });
  return { invitation, replaced };
}

export const invitationView = (i: InvitationRecord, nowMs: number) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: Date.parse(i.expires_at) <= nowMs ? ('expired' as const) : ('pending' as const),
  invited_by: i.invited_by,
  created_at: i.created_at,
  expires_at: i.expires_at,
});
