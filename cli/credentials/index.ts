import { join } from 'node:path';
import { createFileStore } from './file-store.js';
import { createKeychainStore } from './keychain-store.js';
import type { CredentialStore } from './store.js';

export interface CredentialStoreOptions {
  configDir: string;
  env: Record<string, string | undefined>;
  warn(line: string): void;
  /** Injected by tests; defaults to the real keychain. */
  openKeychain?: () => Promise<CredentialStore>;
}

/**
 * The keychain when one answers, else the 0600 file — and then one line on stderr says where the
 * secret went, so nobody believes a token is in the keychain when it is on disk.
 * The first failing call decides; the rest of the process uses the file.
 */
export function createCredentialStore(options: CredentialStoreOptions): CredentialStore {
  const file = join(options.configDir, 'credentials.json');
  const fileStore = createFileStore(file);
  if (options.env.SVC_KEYCHAIN === 'off') return fileStore;

  let active: CredentialStore | null = null;
  let reason: string | null = null;
  const fallBack = (err: unknown) => {
    reason = (err as Error).message.split('\n')[0] ?? 'unknown error';
    options.warn(`svc: no OS keychain answered (${reason}); credentials are kept in ${file} (mode 0600). Set SVC_KEYCHAIN=off to skip the keychain.`);
    active = fileStore;
  };
  const withStore = async <T>(op: (store: CredentialStore) => Promise<T>): Promise<T> => {
    if (!active) {
      try {
        const keychain = await (options.openKeychain ?? createKeychainStore)();
        const result = await op(keychain);
        active = keychain;
        return result;
      } catch (err) {
        fallBack(err);
      }
    }
    return op(active!);
  };
  return {
    kind: () => (active ?? fileStore).kind(),
    get: (account) => withStore((s) => s.get(account)),
    set: (account, secret) => withStore((s) => s.set(account, secret)),
    delete: (account) => withStore((s) => s.delete(account)),
  };
}

export type { CredentialStore } from './store.js';
export { accounts } from './store.js';
