import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { getDoc, insertDoc, listDocs, putDoc, sqlText } from '../runtime/doc-table.js';
import type { CompanyStore, KeyStore } from '../../tenancy-types.js';
import { StoreConflict } from '../../types.js';
import { ACCOUNTS, decideOnRow, findFirst, isDuplicateIn } from './rows.js';
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
  };
}

/**
 * Access keys on PostgreSQL, found by hash (only the SHA-256 of a key is stored) through an index,
 * on every MCP call, from the database: a key deleted or an account key rotated through one daemon
 * is refused by every other on its next request.
 */
export function createPostgresKeyStore(pool: pg.Pool): KeyStore {
  return {
    addSecretKey: async (key) => {
      await putDoc(pool, t.secretKeys, ACCOUNTS, key);
      return structuredClone(key);
    },
    findSecretKeyByHash: (hash) => findFirst(pool, t.secretKeys, 'hash', hash),
    listSecretKeys: (userId) => listDocs(pool, t.secretKeys, ACCOUNTS, { user_id: userId }),
    revokeSecretKey: async (id, userId) => {
      // One statement: the key goes only when it is this user's.
      const { rowCount } = await pool.query('DELETE FROM svc_secret_keys WHERE id = $1 AND user_id = $2', [
        sqlText(id),
        sqlText(userId),
      ]);
      return (rowCount ?? 0) > 0;
    },
    setAccountKey: (key) =>
      withTransaction(pool, async (client) => {
        // The old key goes in the transaction that installs the new one. If a rotation on another
        // daemon inserts between the delete and the insert, the insert finds its row (unique
        // user_id) and waits for it; the next round deletes it (each statement sees the latest
        // commits), so the user is left with exactly one key: the last one installed.
        let rotated = false;
        for (let round = 0; round < 5; round++) {
          const { rowCount } = await client.query('DELETE FROM svc_account_keys WHERE user_id = $1', [
            sqlText(key.user_id),
          ]);
          rotated ||= (rowCount ?? 0) > 0;
          if (await insertDoc(client, t.accountKeys, ACCOUNTS, key)) return { rotated };
        }
        // Only a key id that exists already (ids are random) gets here: refuse rather than loop.
        throw new Error(`account key ${key.id} could not be installed`);
      }),
    findAccountKeyByHash: (hash) => findFirst(pool, t.accountKeys, 'hash', hash),
    accountKeyOf: (userId) => findFirst(pool, t.accountKeys, 'user_id', userId),
    // Read under the row lock: a key deleted meanwhile stays deleted.
    touch: (kind, id, atIso) =>
      kind === 'secret'
        ? decideOnRow(pool, t.secretKeys, id, (k) => ({ write: k && { ...k, last_used_at: atIso }, answer: undefined }))
        : decideOnRow(pool, t.accountKeys, id, (k) => ({
            write: k && { ...k, last_used_at: atIso },
            answer: undefined,
          })),
  };
}
