import {
  type CompanyRemoval,
  type CompanyStore,
  membershipId,
  type RotateOutcome,
  type SecretKeyRecord,
} from '../tenancy-types.js';
import { type CallerKeyStore, StoreConflict } from '../types.js';
import type { AccountTables } from './tables.js';

/** Companies. The name check and the insert are one write, so two racing creates cannot both win. */
export function createCompanyStore(t: AccountTables): CompanyStore {
  const { space, companies } = t;
  return {
    create: (company) =>
      space
        .write((tx) => {
          if (companies.count('owner_name', `${company.owner_id}|${company.name.toLowerCase()}`) > 0) {
            throw new StoreConflict('company_name_taken', 'the owner has a Company with this name');
          }
          tx.put(companies, structuredClone(company));
        })
        .then(() => companies.get(company.id)!),
    findById: async (id) => companies.get(id),
    listByOwner: async (ownerId) => companies.lookup('owner', ownerId),
    list: async () => [...companies.all()],
    remove: (companyId, ownerId) =>
      space.write((tx): CompanyRemoval | undefined => {
        const company = companies.get(companyId);
        if (!company || company.owner_id !== ownerId) return undefined;
        const members = t.memberships.lookup('company', companyId);
        const invitations = t.invitations.lookup('live_company', companyId);
        const keys = t.secretKeys.lookup('company', companyId);
        for (const m of members) tx.remove(t.memberships, m.id);
        for (const i of invitations) tx.remove(t.invitations, i.id);
        for (const k of keys) tx.remove(t.secretKeys, k.id);
        tx.remove(companies, companyId);
        return {
          company: structuredClone(company),
          members: members.map((m) => m.user_id),
          invitations: invitations.length,
          keys: keys.map((k) => k.id),
        };
      }),
  };
}

/**
 * Access keys, by hash (SECURITY.md: only the SHA-256 of a key is stored): authenticating a key is one
 * index read on the hot path of every MCP call. Revoking deletes the row: the next request with that
 * key finds nothing.
 */
export function createKeyStore(t: AccountTables): CallerKeyStore {
  const { space, secretKeys, accountKeys, users, companies } = t;
  return {
    addSecretKey: (key) =>
      space.write((tx) => tx.put(secretKeys, structuredClone(key))).then(() => secretKeys.get(key.id)!),
    findSecretKeyByHash: async (hash) => secretKeys.first('hash', hash),
    findSecretKeyWithOwner: async (hash) => {
      const key = secretKeys.first('hash', hash);
      if (!key) return undefined;
      const company = companies.get(key.company_id);
      const makerRole =
        company?.owner_id === key.user_id
          ? 'owner'
          : (t.memberships.get(membershipId(key.company_id, key.user_id))?.role ?? null);
      return { key, user: users.get(key.user_id), company, owner: company && users.get(company.owner_id), makerRole };
    },
    listSecretKeys: async (userId) => secretKeys.lookup('user', userId),
    listCompanyKeys: async (companyId) => secretKeys.lookup('company', companyId),
    findSecretKeyById: async (id) => secretKeys.get(id),
    listKeysExpiring: async (afterIso, untilIso) => {
      // A walk over the keys in memory, once a minute: no index of its own, so the table's keys
      // (and the snapshots made of them) stay as they are.
      const out: SecretKeyRecord[] = [];
      for (const k of secretKeys.all())
        if (k.expires_at && k.expires_at > afterIso && k.expires_at <= untilIso) out.push(structuredClone(k));
      return out;
    },
    deleteCompanyKey: (id, companyId) =>
      space.write((tx) => {
        const key = secretKeys.get(id);
        if (!key || key.company_id !== companyId) return false;
        tx.remove(secretKeys, id);
        return true;
      }),
    revokeSecretKey: (id, userId) =>
      space.write((tx) => {
        const key = secretKeys.get(id);
        if (!key || key.user_id !== userId) return false;
        tx.remove(secretKeys, id);
        return true;
      }),
    rotateSecretKey: (oldId, userId, fresh, retiresAt) =>
      space.write((tx): RotateOutcome => {
        const old = secretKeys.get(oldId);
        if (!old || old.user_id !== userId) return { ok: false, reason: 'not_found' };
        if (old.replaced_by) return { ok: false, reason: 'already_rotated' };
        const retiring = { ...old, retires_at: retiresAt, replaced_by: fresh.id };
        tx.put(secretKeys, retiring);
        tx.put(secretKeys, structuredClone(fresh));
        return { ok: true, old: structuredClone(retiring) };
      }),
    setAccountKey: (key) =>
      space.write((tx) => {
        // One account key per user: the old one goes in the same write that installs the new.
        const old = accountKeys.lookup('user', key.user_id);
        for (const k of old) tx.remove(accountKeys, k.id);
        tx.put(accountKeys, structuredClone(key));
        return { rotated: old.length > 0 };
      }),
    findAccountKeyByHash: async (hash) => accountKeys.first('hash', hash),
    accountKeyOf: async (userId) => accountKeys.first('user', userId),
    touch: (kind, id, atIso, ip) =>
      space.write((tx) => {
        if (kind === 'secret') {
          const key = secretKeys.get(id);
          if (key) tx.put(secretKeys, { ...key, last_used_at: atIso, last_used_ip: ip ?? null });
        } else {
          const key = accountKeys.get(id);
          if (key) tx.put(accountKeys, { ...key, last_used_at: atIso });
        }
      }),
  };
}
