import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCredentialStore } from '../../../cli/credentials/index.js';
import { createKeychainStore } from '../../../cli/credentials/keychain-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * The real OS keychain (Secret Service on Linux; .ci/run provides gnome-keyring under
 * dbus-run-session). Whether one answers is found by trying; when none does, this file says so on
 * stdout and tests the fallback the CLI then takes instead, so it never passes by doing nothing.
 */
const account = `svc-test:${randomBytes(6).toString('hex')}`;

async function probe(): Promise<string | null> {
  try {
    const store = await createKeychainStore();
    await store.set(account, 'probe');
    await store.delete(account);
    return null;
  } catch (err) {
    return (err as Error).message.split('\n')[0] ?? 'unknown error';
  }
}

const unavailable = await probe();

if (unavailable === null) {
  test('keychain: set, get, overwrite and delete round trip in the Secret Service', async () => {
    const store = await createKeychainStore();
    assert.is(store.kind(), 'keychain');
    const secret = `sk_${randomBytes(16).toString('base64url')}`;
    try {
      await store.set(account, secret);
      assert.is(await store.get(account), secret);
      await store.set(account, secret + '2');
      assert.is(await store.get(account), secret + '2');
      assert.is(await store.delete(account), true);
      assert.is(await store.get(account), null);
    } finally {
      await store.delete(account).catch(() => false);
    }
  });

  test('keychain: the CLI store picks the keychain and warns about nothing', async () => {
    const warnings: string[] = [];
    const store = createCredentialStore({ configDir: tempDir('svc-config'), env: {}, warn: (l) => warnings.push(l) });
    try {
      await store.set(account, 'v');
      assert.is(store.kind(), 'keychain');
      assert.is(await store.get(account), 'v');
    } finally {
      await store.delete(account).catch(() => false);
    }
    assert.equal(warnings, []);
  });
} else {
  process.stdout.write(
    `keychain.test: no Secret Service answered (${unavailable}); testing the file fallback instead of the keychain\n`,
  );
  test('no keychain answers: the CLI store falls back to the file and warns once', async () => {
    const configDir = tempDir('svc-config');
    const warnings: string[] = [];
    const store = createCredentialStore({ configDir, env: {}, warn: (l) => warnings.push(l) });
    await store.set(account, 'v');
    assert.is(await store.get(account), 'v');
    assert.is(store.kind(), 'file');
    assert.is(warnings.length, 1);
    assert.ok(warnings[0]!.includes(join(configDir, 'credentials.json')));
  });
}

test.run();
