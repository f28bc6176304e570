import type { CredentialStore } from './store.js';

const SERVICE = 'svc';
// Probed once per command: a keychain that does not answer within this is taken as absent.
const TIMEOUT_MS = 1500;

/**
 * The OS keychain through @napi-rs/keyring, pinned to the Secret Service on Linux (keyutils
 * would lose everything at logout). Throws when no keychain answers; see index.ts for the fallback.
 */
export async function createKeychainStore(): Promise<CredentialStore> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  const entry = (account: string) => new AsyncEntry(SERVICE, account, { linux: { store: 'secret-service' } });
  const signal = () => AbortSignal.timeout(TIMEOUT_MS);
  return {
    kind: () => 'keychain',
    get: async (account) => (await entry(account).getPassword(signal())) ?? null,
    set: (account, secret) => entry(account).setPassword(secret, signal()),
    delete: (account) => entry(account).deletePassword(signal()),
  };
}
