import type { Doc } from './doc.js';
import type { AccountKeyRecord, KeyStore, SecretKeyRecord } from './tenancy-types.js';

export interface KeysData {
  secret_keys: SecretKeyRecord[];
  account_keys: AccountKeyRecord[];
}

export const keysDefaults = (): KeysData => ({ secret_keys: [], account_keys: [] });

/**
 * Access keys (keys.json), by hash. Lookups go through in-memory maps rebuilt from the document on
 * each change, so authenticating a key costs one map read, not a scan, on the hot path of every MCP call.
 * Revoking deletes the row in one update: the next request with that key finds nothing.
 */
export function createKeyStore(doc: Doc<KeysData>): KeyStore {
  let secretByHash = new Map<string, SecretKeyRecord>();
  let accountByHash = new Map<string, AccountKeyRecord>();
  const reindex = (data: KeysData) => {
    secretByHash = new Map(data.secret_keys.map((k) => [k.hash, k]));
    accountByHash = new Map(data.account_keys.map((k) => [k.hash, k]));
  };
  reindex(doc.data);
  const change = <R>(fn: (data: KeysData) => R) =>
    doc.update((data) => {
      const result = fn(data);
      reindex(data);
      return result;
    });

  return {
    addSecretKey: (key) =>
      change((data) => {
        data.secret_keys.push(key);
        return key;
      }),
    findSecretKeyByHash: (hash) => secretByHash.get(hash),
    listSecretKeys: (userId) => doc.data.secret_keys.filter((k) => k.user_id === userId),
    revokeSecretKey: (id, userId) =>
      change((data) => {
        const before = data.secret_keys.length;
        data.secret_keys = data.secret_keys.filter((k) => !(k.id === id && k.user_id === userId));
        return data.secret_keys.length < before;
      }),
    setAccountKey: (key) =>
      change((data) => {
        const before = data.account_keys.length;
        data.account_keys = data.account_keys.filter((k) => k.user_id !== key.user_id);
        data.account_keys.push(key);
        return { rotated: data.account_keys.length <= before };
      }),
    findAccountKeyByHash: (hash) => accountByHash.get(hash),
    accountKeyOf: (userId) => doc.data.account_keys.find((k) => k.user_id === userId),
    touch: (kind, id, atIso) =>
      doc.update((data) => {
        const list: { id: string; last_used_at: string | null }[] = kind === 'secret' ? data.secret_keys : data.account_keys;
        const key = list.find((k) => k.id === id);
        if (key) key.last_used_at = atIso;
      }),
  };
}
