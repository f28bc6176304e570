import type pg from 'pg';
import { challengeLive, counterMayAdvance } from '../../accounts/factors.js';
import { getDoc, insertDoc, listDocs, putDoc, sqlText } from '../runtime/doc-table.js';
import type { ChallengeStore, PasskeyStore, WalletStore } from '../../factor-types.js';
import { createKeyedQueue } from '../runtime/keyed-queue.js';
import { ACCOUNTS, createSweeper, decideOnRow, decideOnRows } from './rows.js';
import * as t from './tables.js';

/**
 * One-time challenges on PostgreSQL. Each method is a check-and-set on a locked row: of any number
 * of consumers racing on any daemons, one finds the row live and ends it; the others find it gone.
 */
export function createPostgresChallengeStore(pool: pg.Pool): ChallengeStore {
  // Nonces and login challenges are handed to anyone who asks, and a row that ended or expired can
  // never be used again: new challenges sweep a few of those (rows.ts).
  const sweep = createSweeper(pool, t.challenges);
  return {
    create: async (record) => {
      await putDoc(pool, t.challenges, ACCOUNTS, record);
      await sweep(Date.parse(record.created_at));
    },
    consume: (kind, secretHash, nowIso) =>
      decideOnRows(pool, t.challenges, 'live_secret', `${kind}|${secretHash}`, ([row]) => {
        if (!row) return { answer: null };
        const ended = { ...row, ended_at: nowIso };
        return { write: [ended], answer: challengeLive(row, nowIso) ? structuredClone(ended) : null };
      }),
    countTry: (id, kind, nowIso, maxTries) =>
      decideOnRow(pool, t.challenges, id, (row) => {
        if (!row || row.kind !== kind || !challengeLive(row, nowIso) || row.tries >= maxTries) return { answer: null };
        const counted = { ...row, tries: row.tries + 1 };
        return { write: counted, answer: structuredClone(counted) };
      }),
    end: (id, nowIso) =>
      decideOnRow(pool, t.challenges, id, (row) =>
        !row || row.ended_at ? { answer: false } : { write: { ...row, ended_at: nowIso }, answer: true },
      ),
  };
}

/** Passkeys on PostgreSQL: the credential id is the primary key, so it registers once across daemons. */
export function createPostgresPasskeyStore(pool: pg.Pool): PasskeyStore {
  return {
    add: (record) => insertDoc(pool, t.passkeys, ACCOUNTS, record),
    find: (id) => getDoc(pool, t.passkeys, ACCOUNTS, id),
    listByUser: (userId) => listDocs(pool, t.passkeys, ACCOUNTS, { user_id: userId }),
    // Under the row lock: two logins replaying one counter value on two daemons cannot both pass.
    advanceCounter: (id, counter, atIso) =>
      decideOnRow(pool, t.passkeys, id, (key) =>
        !key || !counterMayAdvance(key.counter, counter)
          ? { answer: false }
          : { write: { ...key, counter, last_used_at: atIso }, answer: true },
      ),
    remove: async (id, userId) => {
      const { rowCount } = await pool.query('DELETE FROM svc_passkeys WHERE id = $1 AND user_id = $2', [
        sqlText(id),
        sqlText(userId),
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}

/** Wallet links on PostgreSQL: the address is the primary key, so two racing sign-ups get one account. */
export function createPostgresWalletStore(pool: pg.Pool): WalletStore {
  // Links of one address from this daemon are tried in call order (the first asked is the one made).
  const inOrder = createKeyedQueue();
  return {
    findUserId: async (address) => (await getDoc(pool, t.wallets, ACCOUNTS, address.toLowerCase()))?.user_id,
    link: (address, userId, atIso) => {
      const lower = address.toLowerCase();
      return inOrder(lower, () =>
        insertDoc(pool, t.wallets, ACCOUNTS, { address: lower, user_id: userId, created_at: atIso }),
      );
    },
  };
}
