import { accounts, type CredentialStore } from './store.js';

const KINDS = ['token:', 'account-key:', 'secret-key:'];

/**
 * The credential store seen through one profile. Before profiles, secrets were filed under the
 * daemon URL (`token:http://127.0.0.1:7878`); such a name, asked for by code that still builds it
 * from the URL, is read as the profile's, and a secret found only under the old name is moved to
 * the profile's name on first read — so an existing login keeps working, and from then on
 * survives a port change.
 */
export function scopeCredentials(store: CredentialStore, scope: string, legacyUrl: () => string): CredentialStore {
  const swap = (account: string, from: string, to: string): string | null => {
    for (const kind of KINDS) {
      if (account === kind + from || account.startsWith(`${kind}${from}:`))
        return kind + to + account.slice(kind.length + from.length);
    }
    return null;
  };
  const scoped = (account: string) => swap(account, legacyUrl(), scope) ?? account;
  const legacy = (account: string) => swap(account, scope, legacyUrl());
  return {
    kind: store.kind,
    async get(account) {
      const name = scoped(account);
      const found = await store.get(name);
      const old = found === null ? legacy(name) : null;
      if (!old) return found;
      const moved = await store.get(old);
      if (moved === null) return null;
      await store.set(name, moved);
      await store.delete(old);
      return moved;
    },
    set: (account, secret) => store.set(scoped(account), secret),
    async delete(account) {
      const name = scoped(account);
      const old = legacy(name);
      const removed = await store.delete(name);
      return (old ? await store.delete(old) : false) || removed;
    },
    async where(account) {
      const name = scoped(account);
      if (!store.where) return (await store.get(name)) !== null ? store.kind() : null;
      return (await store.where(name)) ?? (legacy(name) ? await store.where(legacy(name)!) : null);
    },
  };
}

/** The same for the non-secret config: the current Company was filed under `company:<url>`. */
export const companyKey = (scope: string) => `company:${scope}`;
/** The remote origin a local profile logged in to (cli/credentials/origin-guard.ts). */
export const bindingKey = (scope: string) => `origin:${scope}`;

/** Every secret a profile holds: its login, its account key, and the keys of its current Company. */
export const profileSecretNames = (scope: string, companyId?: string): string[] => [
  accounts.token(scope),
  accounts.accountKey(scope),
  ...(companyId ? [accounts.secretKey(scope, companyId), accounts.secretKeys(scope, companyId)] : []),
];
