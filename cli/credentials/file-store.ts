import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CredentialStore } from './store.js';

/**
 * Secrets in a 0600 JSON file of the config folder: the fallback when no OS keychain answers,
 * or when SVC_KEYCHAIN=off. Written to a temp file and renamed, so a crash never leaves half a file.
 */
export function createFileStore(file: string): CredentialStore {
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`credential file ${file} is unreadable: ${(err as Error).message}`);
    }
  };
  const write = (data: Record<string, string>) => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = join(dirname(file), `.credentials.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  };
  return {
    kind: () => 'file',
    async where(account) {
      return account in read() ? 'file' : null;
    },
    async get(account) {
      return read()[account] ?? null;
    },
    async set(account, secret) {
      write({ ...read(), [account]: secret });
    },
    async delete(account) {
      const data = read();
      if (!(account in data)) return false;
      delete data[account];
      write(data);
      return true;
    },
  };
}
