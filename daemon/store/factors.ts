import type { Doc } from './doc.js';
import type { ChallengeRecord, ChallengeStore, PasskeyRecord, PasskeyStore, WalletLink, WalletStore } from './factor-types.js';

/** The `factors` document: one-time challenges and passkeys (issue 4). */
export interface FactorsData {
  challenges: ChallengeRecord[];
  passkeys: PasskeyRecord[];
  wallets: WalletLink[];
}

export const factorsDefaults = (): FactorsData => ({ challenges: [], passkeys: [], wallets: [] });

/** Every method is one synchronous check-and-set inside `doc.update`: of 20 racing consumers, one wins. */
export function createChallengeStore(doc: Doc<FactorsData>): ChallengeStore {
  const live = (c: ChallengeRecord, nowIso: string) => !c.ended_at && c.expires_at > nowIso;
  return {
    create: (record) =>
      doc.update((data) => {
        // Keep only live rows: nonces and login challenges are handed to anyone who asks, and a row that
        // ended or expired can never be consumed again, so keeping it would only grow this file.
        data.challenges = data.challenges.filter((c) => live(c, record.created_at));
        data.challenges.push(record);
      }),
    consume: (kind, secretHash, nowIso) =>
      doc.update((data) => {
        const row = data.challenges.find((c) => c.kind === kind && !c.ended_at && c.secret_hash === secretHash);
        if (!row) return null;
        row.ended_at = nowIso;
        return live({ ...row, ended_at: null }, nowIso) ? structuredClone(row) : null;
      }),
    countTry: (id, kind, nowIso, maxTries) =>
      doc.update((data) => {
        const row = data.challenges.find((c) => c.id === id && c.kind === kind);
        if (!row || !live(row, nowIso) || row.tries >= maxTries) return null;
        row.tries++;
        return structuredClone(row);
      }),
    end: (id, nowIso) =>
      doc.update((data) => {
        const row = data.challenges.find((c) => c.id === id);
        if (!row || row.ended_at) return false;
        row.ended_at = nowIso;
        return true;
      }),
  };
}

export function createPasskeyStore(doc: Doc<FactorsData>): PasskeyStore {
  return {
    add: (record) =>
      doc.update((data) => {
        if (data.passkeys.some((p) => p.id === record.id)) return false;
        data.passkeys.push(record);
        return true;
      }),
    find: (id) => doc.data.passkeys.find((p) => p.id === id),
    listByUser: (userId) => doc.data.passkeys.filter((p) => p.user_id === userId),
    advanceCounter: (id, counter, atIso) =>
      doc.update((data) => {
        const key = data.passkeys.find((p) => p.id === id);
        // An authenticator without a counter always reports 0 (WebAuthn §6.1.1); both zero is allowed, anything else must grow.
        if (!key || (counter <= key.counter && !(counter === 0 && key.counter === 0))) return false;
        key.counter = counter;
        key.last_used_at = atIso;
        return true;
      }),
    remove: (id, userId) =>
      doc.update((data) => {
        const before = data.passkeys.length;
        data.passkeys = data.passkeys.filter((p) => !(p.id === id && p.user_id === userId));
        return data.passkeys.length < before;
      }),
  };
}

export function createWalletStore(doc: Doc<FactorsData>): WalletStore {
  return {
    findUserId: (address) => doc.data.wallets.find((w) => w.address === address.toLowerCase())?.user_id,
    link: (address, userId, atIso) =>
      doc.update((data) => {
        const lower = address.toLowerCase();
        if (data.wallets.some((w) => w.address === lower)) return false;
        data.wallets.push({ address: lower, user_id: userId, created_at: atIso });
        return true;
      }),
  };
}
