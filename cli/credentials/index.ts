import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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

/** Marks, in the config folder, that the file fallback was announced there already. */
const NOTED = 'keychain-fallback-noted';

/**
 * The keychain when one answers, else the 0600 file. The keychain is probed once per command
 * (the first call decides, with a short time-out in keychain-store.ts); the fallback is
 * announced once per config folder in one sentence, so nobody believes a token is in the
 * keychain when it is on disk, without repeating it on every command (the D-Bus details only
 * under SVC_DEBUG). With a keychain, a secret still in the file is moved into it and the file
 * copy removed: a secret is kept in one place.
 */
export function createCredentialStore(options: CredentialStoreOptions): CredentialStore {
  const file = join(options.configDir, 'credentials.json');
  const fileStore = createFileStore(file);
  if (options.env.SVC_KEYCHAIN === 'off') return fileStore;

  let active: CredentialStore | null = null;
  const fallBack = (err: unknown) => {
    active = fileStore;
    const noted = join(options.configDir, NOTED);
    if (options.env.SVC_DEBUG) options.warn(`svc: keychain error: ${(err as Error)?.message ?? err}`);
    if (existsSync(noted)) return;
    options.warn(
      `svc: no OS keychain is available, so credentials are kept in ${file} (mode 0600); set SVC_KEYCHAIN=off to stop trying the keychain.`,
    );
    try {
      mkdirSync(options.configDir, { recursive: true, mode: 0o700 });
      writeFileSync(noted, new Date().toISOString() + '\n', { mode: 0o600 });
    } catch {
      // an unwritable config folder: the sentence is simply said again next time
    }
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
  const inKeychain = () => active !== null && active !== fileStore;
  return {
    kind: () => (active ?? fileStore).kind(),
    async get(account) {
      const found = await withStore((s) => s.get(account));
      if (found !== null || !inKeychain()) return found;
      // Left in the file by an earlier fallback: move it into the keychain now.
      const fromFile = await fileStore.get(account);
      if (fromFile === null) return null;
      await active!.set(account, fromFile);
      await fileStore.delete(account);
      return fromFile;
    },
    async set(account, secret) {
      await withStore((s) => s.set(account, secret));
      if (inKeychain()) await fileStore.delete(account);
    },
    async delete(account) {
      const removed = await withStore((s) => s.delete(account));
      const fromFile = inKeychain() ? await fileStore.delete(account) : false;
      return removed || fromFile;
    },
    async where(account) {
      if ((await withStore((s) => s.get(account))) !== null) return active!.kind();
      return inKeychain() && (await fileStore.get(account)) !== null ? 'file' : null;
    },
  };
}

export type { CredentialStore } from './store.js';
export { accounts } from './store.js';
