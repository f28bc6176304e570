import type pg from 'pg';
import type { Role } from '../../../../shared/roles.js';
import { withTransaction } from '../connect.js';
import { deleteDoc, getDoc, listDocs, putDoc, sqlText } from '../runtime/doc-table.js';
import {
  type AcceptOutcome,
  type CompanyRecord,
  type InvitationRecord,
  type MemberStore,
  type MembershipRecord,
  membershipId,
  type TransferOutcome,
} from '../../tenancy-types.js';
import { ACCOUNTS, decideOnRow, findFirst, isDuplicateIn } from './rows.js';
import * as t from './tables.js';

/**
 * Memberships and invitations on PostgreSQL. Nothing is cached: a member removed or a role lowered
 * through one daemon is what every daemon reads on its next request. Compound changes lock the
 * rows they decide on (the Company for a transfer, the invitation for an accept) in one transaction.
 */
export function createPostgresMemberStore(pool: pg.Pool): MemberStore {
  return {
    accessOf: async (companyId, userId) => {
      // The Company and the caller's row in one round trip: what every Company request asks.
      const { rows } = await pool.query<{ company: CompanyRecord; membership: MembershipRecord | null }>(
        `SELECT c.doc AS company, m.doc AS membership FROM svc_companies c
           LEFT JOIN svc_memberships m ON m.id = $2
         WHERE c.id = $1`,
        [sqlText(companyId), sqlText(membershipId(companyId, userId))],
      );
      const row = rows[0];
      if (!row) return undefined;
      const role: Role | null = row.company.owner_id === userId ? 'owner' : (row.membership?.role ?? null);
      return { company: row.company, role };
    },
    companiesOf: async (userId) => {
      const { rows } = await pool.query<{ company: CompanyRecord; membership: MembershipRecord | null }>(
        `SELECT c.doc AS company, m.doc AS membership FROM svc_companies c
           LEFT JOIN svc_memberships m ON m.company_id = c.id AND m.user_id = $1
         WHERE c.owner_id = $1 OR m.user_id = $1 ORDER BY c.pos`,
        [sqlText(userId)],
      );
      return rows.map((r) => ({
        company: r.company,
        role: r.company.owner_id === userId ? 'owner' : (r.membership?.role ?? 'viewer'),
      }));
    },
    listMembers: (companyId) => listDocs(pool, t.memberships, ACCOUNTS, { company_id: companyId }),
    setRole: (companyId, userId, role) =>
      decideOnRow(pool, t.memberships, membershipId(companyId, userId), (row) => {
        const next = row && { ...row, role };
        return { write: next, answer: next };
      }),
    remove: (companyId, userId) => deleteDoc(pool, t.memberships, ACCOUNTS, membershipId(companyId, userId)),
    transfer: async (companyId, fromId, toId, atIso) => {
      try {
        return await withTransaction(pool, async (client): Promise<TransferOutcome> => {
          // The Company row is locked: two transfers (or a transfer and a removal) take turns.
          const company = await getDoc(client, t.companies, ACCOUNTS, companyId, true);
          if (!company || company.owner_id !== fromId) return { ok: false, reason: 'not_owner' };
          const target = await getDoc(client, t.memberships, ACCOUNTS, membershipId(companyId, toId), true);
          if (!target) return { ok: false, reason: 'not_member' };
          const moved = { ...company, owner_id: toId };
          await putDoc(client, t.companies, ACCOUNTS, moved);
          await deleteDoc(client, t.memberships, ACCOUNTS, target.id);
          await putDoc(client, t.memberships, ACCOUNTS, {
            id: membershipId(companyId, fromId),
            company_id: companyId,
            user_id: fromId,
            role: 'admin',
            created_at: atIso,
            invited_by: null,
          } satisfies MembershipRecord);
          return { ok: true, company: moved };
        });
      } catch (err) {
        // Company names are unique per owner: the new owner has one of this name already.
        if (isDuplicateIn(err, 'svc_companies_owner_name')) return { ok: false, reason: 'name_taken' };
        throw err;
      }
    },
    invite: (invitation) =>
      withTransaction(pool, async (client) => {
        const [pending] = await listDocs(
          client,
          t.invitations,
          ACCOUNTS,
          { live_email: `${invitation.company_id}|${invitation.email}` },
          true,
        );
        if (pending)
          await putDoc(client, t.invitations, ACCOUNTS, {
            ...pending,
            ended_at: invitation.created_at,
            ended_as: 'replaced',
          } satisfies InvitationRecord);
        await putDoc(client, t.invitations, ACCOUNTS, invitation);
        return { replaced: pending?.id ?? null };
      }),
    listInvitations: (companyId) => listDocs(pool, t.invitations, ACCOUNTS, { live_company: companyId }),
    findInvitation: (codeHash) => findFirst(pool, t.invitations, 'live_code', codeHash),
    revokeInvitation: (companyId, id, atIso) =>
      decideOnRow(pool, t.invitations, id, (found) =>
        !found || found.company_id !== companyId || found.ended_at
          ? { answer: false }
          : { write: { ...found, ended_at: atIso, ended_as: 'revoked' as const }, answer: true },
      ),
    acceptInvitation: (codeHash, userId, email, atIso) =>
      withTransaction(pool, async (client): Promise<AcceptOutcome> => {
        // Locked: of two accepts of one code (on any daemons), the second finds it ended.
        const [found] = await listDocs(client, t.invitations, ACCOUNTS, { live_code: codeHash }, true);
        if (!found) return { ok: false, reason: 'not_found' };
        if (Date.parse(found.expires_at) <= Date.parse(atIso)) return { ok: false, reason: 'expired' };
        if (found.email !== email.toLowerCase()) return { ok: false, reason: 'wrong_email' };
        const company = await getDoc(client, t.companies, ACCOUNTS, found.company_id, true);
        if (!company) return { ok: false, reason: 'not_found' };
        const id = membershipId(company.id, userId);
        if (company.owner_id === userId || (await getDoc(client, t.memberships, ACCOUNTS, id)))
          return { ok: false, reason: 'already_member' };
        const membership: MembershipRecord = {
          id,
          company_id: company.id,
          user_id: userId,
          role: found.role,
          created_at: atIso,
          invited_by: found.invited_by,
        };
        await putDoc(client, t.invitations, ACCOUNTS, {
          ...found,
          ended_at: atIso,
          ended_as: 'accepted',
          accepted_by: userId,
        } satisfies InvitationRecord);
        await putDoc(client, t.memberships, ACCOUNTS, membership);
        return { ok: true, company, membership };
      }),
  };
}
