import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { fromSqlText, getDoc, listDocs, putDoc, sqlText } from '../runtime/doc-table.js';
import type {
  CompanyRecord,
  CompanyRemoval,
  CompanyStore,
  MembershipRecord,
  RotateOutcome,
  SecretKeyRecord,
} from '../../tenancy-types.js';
import { type CallerKeyStore, StoreConflict, type UserRecord } from '../../types.js';
import { ACCOUNTS, decideOnRow, findFirst, isDuplicateIn, takeTurn } from './rows.js';
import * as t from './tables.js';

/** Companies on PostgreSQL: a unique index on (owner, lower-cased name) decides between racing creates. */
export function createPostgresCompanyStore(pool: pg.Pool): CompanyStore {
  return {
    create: async (company) => {
      try {
        await putDoc(pool, t.companies, ACCOUNTS, company);
      } catch (err) {
        if (isDuplicateIn(err, 'svc_companies_owner_name'))
          throw new StoreConflict('company_name_taken', 'the owner has a Company with this name');
        throw err;
      }
      return structuredClone(company);
    },
    findById: (id) => getDoc(pool, t.companies, ACCOUNTS, id),
    listByOwner: (ownerId) => listDocs(pool, t.companies, ACCOUNTS, { owner_id: ownerId }),
    list: () => listDocs(pool, t.companies, ACCOUNTS),
    remove: (companyId, ownerId) =>
      withTransaction(pool, async (client): Promise<CompanyRemoval | undefined> => {
        // The Company row is locked: a transfer or a second delete waits, then finds it gone.
        const company = await getDoc(client, t.companies, ACCOUNTS, companyId, true);
        if (!company || company.owner_id !== ownerId) return undefined;
        const id = sqlText(companyId);
        const members = await client.query<{ user_id: string }>(
          'DELETE FROM svc_memberships WHERE company_id = $1 RETURNING user_id',
          [id],
        );
        const invitations = await client.query('DELETE FROM svc_invitations WHERE live_company = $1', [id]);
        const keys = await client.query<{ id: string }>(
          'DELETE FROM svc_secret_keys WHERE company_id = $1 RETURNING id',
          [id],
        );
        await client.query('DELETE FROM svc_companies WHERE id = $1', [id]);
        return {
          company,
          members: members.rows.map((r) => fromSqlText(r.user_id)),
          invitations: invitations.rowCount ?? 0,
          keys: keys.rows.map((r) => fromSqlText(r.id)),
        };
      }),
  };
}

/**
 * Access keys on PostgreSQL, found by hash (only the SHA-256 of a key is stored) through an index,
 * on every MCP call, from the database: a key deleted or an account key rotated through one daemon
 * is refused by every other on its next request.
 */
export function createPostgresKeyStore(pool: pg.Pool): CallerKeyStore {
  return {
    addSecretKey: async (key) => {
      await putDoc(pool, t.secretKeys, ACCOUNTS, key);
      return structuredClone(key);
    },
    findSecretKeyByHash: (hash) => findFirst(pool, t.secretKeys, 'hash', hash),
    findSecretKeyWithOwner: async (hash) => {
      // One round trip for what every MCP call needs (the key, then its user and Company were two).
      const { rows } = await pool.query<{
        key: SecretKeyRecord;
        user: UserRecord | null;
        company: CompanyRecord | null;
        owner: UserRecord | null;
        membership: MembershipRecord | null;
      }>(
        `SELECT k.doc AS key, u.doc AS user, c.doc AS company, o.doc AS owner, m.doc AS membership
           FROM svc_secret_keys k
           LEFT JOIN svc_users u ON u.id = k.user_id
           LEFT JOIN svc_companies c ON c.id = k.company_id
           LEFT JOIN svc_users o ON o.id = c.owner_id
           LEFT JOIN svc_memberships m ON m.id = k.company_id || '|' || k.user_id
         WHERE k.hash = $1 ORDER BY k.pos LIMIT 1`,
        [sqlText(hash)],
      );
      const row = rows[0];
      if (!row) return undefined;
      const { key } = row;
      // The join's company is checked against the record; a row without the column (written by a
      // daemon older than migration 105) has its Company read by id.
      if (row.company?.id === key.company_id) {
        const makerRole = row.company.owner_id === key.user_id ? 'owner' : (row.membership?.role ?? null);
        return { key, user: row.user ?? undefined, company: row.company, owner: row.owner ?? undefined, makerRole };
      }
      const company = await getDoc(pool, t.companies, ACCOUNTS, key.company_id);
      const owner = company?.owner_id ? await getDoc(pool, t.users, ACCOUNTS, company.owner_id) : undefined;
      return { key, user: row.user ?? undefined, company, owner };
    },
    listSecretKeys: (userId) => listDocs(pool, t.secretKeys, ACCOUNTS, { user_id: userId }),
    listCompanyKeys: (companyId) => listDocs(pool, t.secretKeys, ACCOUNTS, { company_id: companyId }),
    findSecretKeyById: (id) => getDoc(pool, t.secretKeys, ACCOUNTS, id),
    listKeysExpiring: async (afterIso, untilIso) => {
      const { rows } = await pool.query<{ doc: SecretKeyRecord }>(
        // Read from the document's text, as migration 105 does: `->>` would unescape every string
        // of the document, and a name holding \u0000 (which json keeps) would fail the whole query.
        `SELECT doc FROM (SELECT doc, pos, substring(doc::text from '"expires_at":"([^"\\\\]*)"') AS exp FROM svc_secret_keys) k
          WHERE exp > $1 AND exp <= $2 ORDER BY pos`,
        [sqlText(afterIso), sqlText(untilIso)],
      );
      return rows.map((r) => r.doc);
    },
    deleteCompanyKey: async (id, companyId) => {
      // One statement: the key goes only when it is this Company's.
      const { rowCount } = await pool.query('DELETE FROM svc_secret_keys WHERE id = $1 AND company_id = $2', [
        sqlText(id),
        sqlText(companyId),
      ]);
      return (rowCount ?? 0) > 0;
    },
    revokeSecretKey: async (id, userId) => {
      // One statement: the key goes only when it is this user's.
      const { rowCount } = await pool.query('DELETE FROM svc_secret_keys WHERE id = $1 AND user_id = $2', [
        sqlText(id),
        sqlText(userId),
      ]);
      return (rowCount ?? 0) > 0;
    },
    rotateSecretKey: (oldId, userId, fresh, retiresAt) =>
      withTransaction(pool, async (client): Promise<RotateOutcome> => {
        // The old row is locked for the transaction: of two daemons rotating one key, the second
        // sees the first's mark and refuses, so a key is never replaced twice.
        const old = await getDoc(client, t.secretKeys, ACCOUNTS, oldId, true);
        if (!old || old.user_id !== userId) return { ok: false, reason: 'not_found' };
        if (old.replaced_by) return { ok: false, reason: 'already_rotated' };
        const retiring = { ...old, retires_at: retiresAt, replaced_by: fresh.id };
        await putDoc(client, t.secretKeys, ACCOUNTS, retiring);
        await putDoc(client, t.secretKeys, ACCOUNTS, fresh);
        return { ok: true, old: retiring };
      }),
    setAccountKey: (key) =>
      withTransaction(pool, async (client) => {
        // Rotations of one user's key take turns across daemons, so each deletes the key the one
        // before it installed: the old key goes in the transaction that installs the new one, and
        // the user is left with exactly one key, the last installed (unique user_id guards it too).
        await takeTurn(client, 'accountKey', key.user_id);
        const { rowCount } = await client.query('DELETE FROM svc_account_keys WHERE user_id = $1', [
          sqlText(key.user_id),
        ]);
        await putDoc(client, t.accountKeys, ACCOUNTS, key);
        return { rotated: (rowCount ?? 0) > 0 };
      }),
    findAccountKeyByHash: (hash) => findFirst(pool, t.accountKeys, 'hash', hash),
    accountKeyOf: (userId) => findFirst(pool, t.accountKeys, 'user_id', userId),
    // Read under the row lock: a key deleted meanwhile stays deleted.
    touch: (kind, id, atIso, ip) =>
      kind === 'secret'
        ? decideOnRow(pool, t.secretKeys, id, (k) => ({
            write: k && { ...k, last_used_at: atIso, last_used_ip: ip ?? null },
            answer: undefined,
          }))
        : decideOnRow(pool, t.accountKeys, id, (k) => ({
            write: k && { ...k, last_used_at: atIso },
            answer: undefined,
          })),
  };
}
