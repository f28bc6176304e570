import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { createCliContext } from '../../../cli/context.js';
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

test('a failing keychain falls back to the 0600 file, with one warning line that names the file', async () => {
  const configDir = tempDir('svc-config');
  const warnings: string[] = [];
  let opened = 0;
  const store = createCredentialStore({
    configDir,
    env: {},
    warn: (l) => warnings.push(l),
    openKeychain: async () => {
      opened++;
      throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: no secret service\nsecond line');
    },
  });
  await store.set('token:http://x', 'jwt');
  assert.is(await store.get('token:http://x'), 'jwt');
  await store.set('account-key:http://x', 'ak_1');
  assert.is(store.kind(), 'file');
  const file = join(configDir, 'credentials.json');
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')), { 'token:http://x': 'jwt', 'account-key:http://x': 'ak_1' });
  assert.is(warnings.length, 1, 'one warning per process, not per call');
  assert.ok(warnings[0]!.includes(file), warnings[0]);
  assert.not.ok(warnings[0]!.includes('ServiceUnknown'), 'the D-Bus details only under SVC_DEBUG');
  assert.not.ok(warnings[0]!.includes('\n'), 'a single line');
  assert.is(opened, 1, 'after the first failure the keychain is not tried again');
});

test('a keychain that answers is used, and nothing is written to the file', async () => {
  const configDir = tempDir('svc-config');
  const keychain = memoryKeychain();
  const warnings: string[] = [];
  const store = createCredentialStore({
    configDir,
    env: {},
    warn: (l) => warnings.push(l),
    openKeychain: async () => keychain,
  });
  await store.set('token:http://x', 'jwt');
  assert.is(await store.get('token:http://x'), 'jwt');
  assert.is(store.kind(), 'keychain');
  assert.is(keychain.data.get('token:http://x'), 'jwt');
  assert.is(await store.delete('token:http://x'), true);
  assert.not.ok(existsSync(join(configDir, 'credentials.json')));
  assert.equal(warnings, []);
});

test('SVC_KEYCHAIN=off uses the file without trying the keychain or warning', async () => {
  const configDir = tempDir('svc-config');
  const warnings: string[] = [];
  let opened = 0;
  const store = createCredentialStore({
    configDir,
    env: { SVC_KEYCHAIN: 'off' },
    warn: (l) => warnings.push(l),
    openKeychain: async () => {
      opened++;
      return memoryKeychain();
    },
  });
  await store.set('token:http://x', 'jwt');
  assert.is(await store.get('token:http://x'), 'jwt');
  assert.is(store.kind(), 'file');
  assert.is(opened, 0);
  assert.equal(warnings, []);
  assert.is(statSync(join(configDir, 'credentials.json')).mode & 0o777, 0o600);
});

test('through the CLI context, the one warning line goes to stderr and names the file; stdout stays clean', async () => {
  const configDir = tempDir('svc-config');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const ctx = createCliContext({
    io: { stdout, stderr, stdin: new PassThrough() },
    env: { SVC_CONFIG_DIR: configDir },
    openKeychain: async () => {
      throw new Error('Platform failure: DBus error: no session bus');
    },
  });
  await ctx.credentials().set('token:http://x', 'jwt');
  assert.is(await ctx.credentials().get('token:http://x'), 'jwt');
  await new Promise((r) => setImmediate(r));
  assert.is(out, '');
  const lines = err.trim().split('\n');
  assert.is(lines.length, 1, err);
  assert.ok(lines[0]!.includes(join(configDir, 'credentials.json')), lines[0]);
});

test.run();
