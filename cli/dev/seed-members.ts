import { UsageError } from '../errors.js';
import { ASSIGNABLE_ROLES } from '../../shared/roles.js';
import { linked } from './references.js';
import { ownerApi, type SeedLine, type SeedRun } from './seed-run.js';

interface MemberRow {
  user_id: string;
  role: string;
}

/**
 * A member of a seeded Company, made the way a team makes one: the owner invites the user's
 * address with the role, the invitation's code is read from the captured mail (the operator
 * surface), and the user accepts it with their own session. Found again by membership: a second
 * run makes nothing, and a role changed in the file is applied to the member.
 */
export async function seedMember(
  run: SeedRun,
  name: string,
  e: Record<string, unknown>,
  where: string,
): Promise<SeedLine> {
  const company = linked(run.made, 'companies', e.company, `${where}.company`);
  const user = linked(run.made, 'users', e.user, `${where}.user`);
  const role = e.role;
  if (typeof role !== 'string' || !(ASSIGNABLE_ROLES as readonly string[]).includes(role))
    throw new UsageError(
      `${where}.role: must be one of ${ASSIGNABLE_ROLES.join(', ')} (ownership moves by a transfer)`,
    );
  if (user.id === company.owner_id)
    throw new UsageError(`${where}: ${String(e.user)} owns ${String(e.company)} already`);
  const owner = ownerApi(run, company);
  const base = `/api/companies/${encodeURIComponent(String(company.id))}`;
  const { members } = await owner.get<{ members: MemberRow[] }>(`${base}/members`);
  const found = members.find((m) => m.user_id === user.id);
  run.made.members[name] = { id: user.id, company_id: company.id, user_id: user.id, role };
  if (found) {
    if (found.role !== role) await owner.patch(`${base}/members/${encodeURIComponent(String(user.id))}`, { role });
    return { kind: 'members', name, id: String(user.id), created: false };
  }
  const email = String(user.email);
  await owner.post(`${base}/invitations`, { email, role });
  const { mail } = await run.api.operator.get<{ mail: Array<{ code: string | null; link?: string | null }> }>(
    `/api/dev/mail?to=${encodeURIComponent(email)}`,
  );
  const code = mail.filter((m) => m.code && m.link?.includes('/join/')).at(-1)?.code;
  if (!code) throw new UsageError(`${where}: the invitation mail to ${email} was not captured by the daemon`);
  await run.api.as(run.tokens.get(String(user.id))!).post('/api/invitations/accept', { code });
  return { kind: 'members', name, id: String(user.id), created: true };
}
