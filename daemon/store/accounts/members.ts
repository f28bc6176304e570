import type { Role } from '../../../shared/roles.js';
import {
  type AcceptOutcome,
  type CompanyRecord,
  type MemberStore,
  type MembershipRecord,
  membershipId,
  type TransferOutcome,
} from '../tenancy-types.js';
import type { AccountTables } from './tables.js';

/** Memberships and invitations on the record engine: each check-and-set is one write of the accounts space. */
export function createMemberStore(t: AccountTables): MemberStore {
  const { space, companies, memberships, invitations } = t;
  const roleOf = (company: CompanyRecord, userId: string): Role | null =>
    company.owner_id === userId ? 'owner' : (memberships.get(membershipId(company.id, userId))?.role ?? null);
  return {
    accessOf: async (companyId, userId) => {
      const company = companies.get(companyId);
      return company && { company, role: roleOf(company, userId) };
    },
    companiesOf: async (userId) => {
      const owned = companies.lookup('owner', userId).map((company) => ({ company, role: 'owner' as Role }));
      const joined = memberships
        .lookup('user', userId)
        .map((m) => ({ company: companies.get(m.company_id), role: m.role as Role }))
        .filter((e): e is { company: CompanyRecord; role: Role } => e.company !== undefined);
      return [...owned, ...joined].sort((a, b) => a.company.created_at.localeCompare(b.company.created_at));
    },
    listMembers: async (companyId) => memberships.lookup('company', companyId),
    setRole: (companyId, userId, role) =>
      space.write((tx) => {
        const row = memberships.get(membershipId(companyId, userId));
        if (!row) return undefined;
        const next = { ...row, role };
        tx.put(memberships, next);
        return next;
      }),
    remove: (companyId, userId) =>
      space.write((tx) => {
        const id = membershipId(companyId, userId);
        if (!memberships.get(id)) return false;
        tx.remove(memberships, id);
        return true;
      }),
    transfer: (companyId, fromId, toId, atIso) =>
      space.write((tx): TransferOutcome => {
        const company = companies.get(companyId);
        if (!company || company.owner_id !== fromId) return { ok: false, reason: 'not_owner' };
        const target = memberships.get(membershipId(companyId, toId));
        if (!target) return { ok: false, reason: 'not_member' };
        // Company names are unique per owner: the new owner may have one of this name already.
        if (companies.count('owner_name', `${toId}|${company.name.toLowerCase()}`) > 0)
          return { ok: false, reason: 'name_taken' };
        const moved = { ...company, owner_id: toId };
        tx.put(companies, moved);
        tx.remove(memberships, target.id);
        const former: MembershipRecord = {
          id: membershipId(companyId, fromId),
          company_id: companyId,
          user_id: fromId,
          role: 'admin',
          created_at: atIso,
          invited_by: null,
        };
        tx.put(memberships, former);
        return { ok: true, company: moved };
      }),
    invite: (invitation) =>
      space.write((tx) => {
        const pending = invitations.first('live_email', `${invitation.company_id}|${invitation.email}`);
        if (pending) tx.put(invitations, { ...pending, ended_at: invitation.created_at, ended_as: 'replaced' });
        tx.put(invitations, structuredClone(invitation));
        return { replaced: pending?.id ?? null };
      }),
    listInvitations: async (companyId) => invitations.lookup('live_company', companyId),
    findInvitation: async (codeHash) => invitations.first('live_code', codeHash),
    revokeInvitation: (companyId, id, atIso) =>
      space.write((tx) => {
        const found = invitations.get(id);
        if (!found || found.company_id !== companyId || found.ended_at) return false;
        tx.put(invitations, { ...found, ended_at: atIso, ended_as: 'revoked' });
        return true;
      }),
    acceptInvitation: (codeHash, userId, email, atIso) =>
      space.write((tx): AcceptOutcome => {
        const found = invitations.first('live_code', codeHash);
        if (!found) return { ok: false, reason: 'not_found' };
        if (Date.parse(found.expires_at) <= Date.parse(atIso)) return { ok: false, reason: 'expired' };
        if (found.email !== email.toLowerCase()) return { ok: false, reason: 'wrong_email' };
        const company = companies.get(found.company_id);
        if (!company) return { ok: false, reason: 'not_found' };
        if (roleOf(company, userId)) return { ok: false, reason: 'already_member' };
        const membership: MembershipRecord = {
          id: membershipId(company.id, userId),
          company_id: company.id,
          user_id: userId,
          role: found.role,
          created_at: atIso,
          invited_by: found.invited_by,
        };
        tx.put(invitations, { ...found, ended_at: atIso, ended_as: 'accepted', accepted_by: userId });
        tx.put(memberships, membership);
        return { ok: true, company, membership };
      }),
  };
}
