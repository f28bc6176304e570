import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newTotpSecret, totpCodeAt, totpSealer } from '../../daemon/auth/totp/totp-codes.js';
import { openFileStores } from '../../daemon/store/index.js';
import type { UserRecord } from '../../daemon/store/types.js';
import { startDaemonProcess, runCli } from '../helpers/daemon-process.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { storeDepsFor } from '../helpers/store-implementations.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * `svc login` against a real daemon process. The accounts are seeded into the data folder before
 * the daemon starts (one plain user, two with TOTP on), so no signup and no mail is needed.
 */
const dataDir = tempDir('svc-e2e-data');
const codeKey = randomBytes(32);
const secret = newTotpSecret();
const now = new Date().toISOString();
writeFileSync(join(dataDir, 'code-key'), codeKey.toString('hex') + '\n', { mode: 0o600 });
// Written through the data folder's own stores, as the daemon will read them.
const stores = await openFileStores(dataDir, storeDepsFor(new FakeClock()));
for (const user of [
  {
    id: 'usr_plain',
    email: 'plain@example.com',
    tier: 'trial',
    created_at: now,
    email_verified_at: now,
    password_hash: null,
  },
  ...['totp', 'totp2'].map((name) => ({
    id: `usr_${name}`,
    email: `${name}@example.com`,
    tier: 'trial',
    created_at: now,
    email_verified_at: now,
    password_hash: null,
    totp: {
      secret_sealed: totpSealer(codeKey).seal(secret),
      enabled_at: now,
      pending_until: null,
      last_step: null,
      recovery: [],
    },
  })),
])
  await stores.users.create(user as UserRecord);
await stores.close();

let daemon: Awaited<ReturnType<typeof startDaemonProcess>>;
test.before(async () => {
  daemon = await startDaemonProcess(dataDir);
});
test.after(async () => {
  await daemon?.stop();
});

const envFor = (configDir: string) => ({
  SVC_URL: daemon.url,
  SVC_DATA_DIR: dataDir,
  SVC_KEYCHAIN: 'off',
  SVC_CONFIG_DIR: configDir,
});
const storedToken = (configDir: string) =>
  JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8'))['token:profile:default'] as string;

test('svc login --email-code (no terminal) waits for the local mail, logs in and stores the session', async () => {
  const config = tempDir('svc-e2e-config');
  const res = await runCli(['login', '--email-code', '--email', 'plain@example.com'], envFor(config));
  assert.is(res.code, 0, res.stderr);
  assert.match(res.stdout, /Logged in to .* as plain@example\.com/);
  const me = await fetch(`${daemon.url}/api/auth/totp`, {
    headers: { authorization: `Bearer ${storedToken(config)}` },
  });
  assert.is(me.status, 200);
  assert.is((await me.json()).enabled, false);
});

test('svc login --email-code on a TOTP account: refused without --totp-code (exit 2), logged in with it', async () => {
  const config = tempDir('svc-e2e-config');
  const bare = await runCli(['login', '--email-code', '--email', 'totp@example.com'], envFor(config));
  assert.is(bare.code, 2);
  assert.match(bare.stderr, /--totp-code/);
  // A second account with the same secret: the first one may ask for a code only once a minute.
  const ok = await runCli(
    ['login', '--email-code', '--email', 'totp2@example.com', '--totp-code', totpCodeAt(secret, Date.now())],
    envFor(config),
  );
  assert.is(ok.code, 0, ok.stderr);
  const status = await fetch(`${daemon.url}/api/auth/totp`, {
    headers: { authorization: `Bearer ${storedToken(config)}` },
  });
  assert.is((await status.json()).enabled, true);
});

test.run();
