import type { ChallengeRecord, ChallengeStore, PasskeyStore, WalletStore } from '../factor-types.js';
import { createSweeper } from './expiry.js';
import type { AccountTables } from './tables.js';

/** Every method is one synchronous check-and-set inside `space.write`: of 20 racing consumers, one wins. */
export function createChallengeStore(t: AccountTables): ChallengeStore {
  const { space, challenges } = t;
  // Nonces and login challenges are handed to anyone who asks, and a row that ended or expired can
  // never be used again: each new challenge forgets a few of those.
  const sweeper = createSweeper(challenges, t.meta, (c) => c.id);
  const live = challengeLive;
  return {
    create: (record) =>
      space.write((tx) => {
        tx.put(challenges, structuredClone(record));
        sweeper.sweep(tx, Date.parse(record.created_at));
      }),
    consume: (kind, secretHash, nowIso) =>
      space.write((tx) => {
        const row = challenges.first('live_secret', `${kind}|${secretHash}`);
        if (!row) return null;
        const ended = { ...row, ended_at: nowIso };
        tx.put(challenges, ended);
        return live(row, nowIso) ? structuredClone(ended) : null;
      }),
    countTry: (id, kind, nowIso, maxTries) =>
      space.write((tx) => {
        const row = challenges.get(id);
        if (!row || row.kind !== kind || !live(row, nowIso) || row.tries >= maxTries) return null;
        const counted = { ...row, tries: row.tries + 1 };
        tx.put(challenges, counted);
        return structuredClone(counted);
      }),
    end: (id, nowIso) =>
      space.write((tx) => {
        const row = challenges.get(id);
        if (!row || row.ended_at) return false;
        tx.put(challenges, { ...row, ended_at: nowIso });
        return true;
      }),
  };
}

/** An authenticator without a counter always reports 0 (WebAuthn §6.1.1); both zero is allowed, anything else must grow. */
export const counterMayAdvance = (stored: number, counter: number): boolean =>
  counter > stored || (counter === 0 && stored === 0);

/** Whether a challenge can still be used at `nowIso`. */
export const challengeLive = (c: ChallengeRecord, nowIso: string): boolean => !c.ended_at && c.expires_at > nowIso;

export function createPasskeyStore(t: AccountTables): PasskeyStore {
  const { space, passkeys } = t;
  return {
    add: (record) =>
      space.write((tx) => {
        if (passkeys.get(record.id)) return false;
        tx.put(passkeys, structuredClone(record));
        return true;
      }),
    find: async (id) => passkeys.get(id),
    listByUser: async (userId) => passkeys.lookup('user', userId),
    advanceCounter: (id, counter, atIso) =>
      space.write((tx) => {
        const key = passkeys.get(id);
        if (!key || !counterMayAdvance(key.counter, counter)) return false;
        tx.put(passkeys, { ...key, counter, last_used_at: atIso });
        return true;
      }),
    remove: (id, userId) =>
      space.write((tx) => {
        const key = passkeys.get(id);
        if (!key || key.user_id !== userId) return false;
        tx.remove(passkeys, id);
        return true;
      }),
  };
}

export function createWalletStore(t: AccountTables): WalletStore {
  const { space, wallets } = t;
  return {
    findUserId: async (address) => wallets.get(address.toLowerCase())?.user_id,
    link: (address, userId, atIso) =>
      space.write((tx) => {
        const lower = address.toLowerCase();
        if (wallets.get(lower)) return false;
        tx.put(wallets, { address: lower, user_id: userId, created_at: atIso });
        return true;
      }),
  };
}
