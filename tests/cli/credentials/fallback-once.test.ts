import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCredentialStore, type CredentialStore } from '../../../cli/credentials/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

function memoryKeychain(): CredentialStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    kind: () => 'keychain',
    get: async (a) => data.get(a) ?? null,
    set: async (a, s) => void data.set(a, s),
    delete: async (a) => data.delete(a),
  };
}
const broken = async (): Promise<CredentialStore> => {
  throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided');
};

test('the fallback is announced once per config folder, in one plain sentence; later commands stay quiet', async () => {
  const configDir = tempDir('svc-config');
  const first: string[] = [];
  await createCredentialStore({ configDir, env: {}, warn: (l) => first.push(l), openKeychain: broken }).set(
    'token:profile:default',
    'jwt',
  );
  assert.is(first.length, 1);
  assert.match(
    first[0]!,
    /^svc: no OS keychain is available, so credentials are kept in .*credentials\.json \(mode 0600\)/,
  );
  assert.not.match(first[0]!, /DBus/);
  const second: string[] = [];
  const again = createCredentialStore({ configDir, env: {}, warn: (l) => second.push(l), openKeychain: broken });
  assert.is(await again.get('token:profile:default'), 'jwt');
  assert.equal(second, [], 'a second command in the same config folder says nothing');
  const other: string[] = [];
  await createCredentialStore({
    configDir: tempDir('svc-config'),
    env: {},
    warn: (l) => other.push(l),
    openKeychain: broken,
  }).get('x');
  assert.is(other.length, 1, 'another config folder is told once too');
});

test('SVC_DEBUG shows the keychain error itself', async () => {
  const lines: string[] = [];
  await createCredentialStore({
    configDir: tempDir('svc-config'),
    env: { SVC_DEBUG: '1' },
    warn: (l) => lines.push(l),
    openKeychain: broken,
  }).get('x');
  assert.ok(
    lines.some((l) => l.includes('ServiceUnknown')),
    lines.join('\n'),
  );
});

test('once a keychain answers, a secret left in the file moves into it and the file copy is removed', async () => {
  const configDir = tempDir('svc-config');
  await createCredentialStore({ configDir, env: { SVC_KEYCHAIN: 'off' }, warn: () => {} }).set(
    'token:profile:default',
    'jwt',
  );
  await createCredentialStore({ configDir, env: { SVC_KEYCHAIN: 'off' }, warn: () => {} }).set(
    'account-key:profile:default',
    'ak_x',
  );
  const keychain = memoryKeychain();
  const store = createCredentialStore({ configDir, env: {}, warn: () => {}, openKeychain: async () => keychain });
  assert.is(await store.where!('account-key:profile:default'), 'file', 'not moved before it is used');
  assert.is(await store.get('token:profile:default'), 'jwt');
  assert.is(keychain.data.get('token:profile:default'), 'jwt');
  const file = JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8'));
  assert.equal(file, { 'account-key:profile:default': 'ak_x' }, 'the token is no longer in the file');
  await store.set('account-key:profile:default', 'ak_y');
  assert.equal(JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')), {});
  assert.is(await store.where!('account-key:profile:default'), 'keychain');
  assert.ok(existsSync(join(configDir, 'credentials.json')));
});

test.run();
