import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { waitForMail } from '../../helpers/mail.js';
import { bearer, newInvite } from '../../helpers/signup.js';

function readAll(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? readAll(path) : readFileSync(path).toString('latin1')))
    .join('\n');
}

test('after a full flow on file storage, no password, code, link token, invite or JWT is in the data folder', async () => {
  const dataDir = tempDir('svc-secrets');
  const t = await createTestApp({ storage: 'file', dataDir });
  const password = 'my very secret passphrase 42';
  const newPassword = 'the second secret passphrase 43';
  const invite = await newInvite(t);
  const signup = await t.post('/api/auth/signup', { email: 'leak@example.com', password, invite_code: invite });
  const code = (await waitForMail(t, 'leak@example.com')).code!;
  const verified = await t.post('/api/auth/verify', { email: 'leak@example.com', code });
  const login = await t.post('/api/auth/login', { email: 'leak@example.com', password });
  await t.post('/api/auth/forgot-password', { email: 'leak@example.com' });
  const link = (await waitForMail(t, 'leak@example.com', (m) => m.link !== null)).link!;
  const resetToken = new URL(link).searchParams.get('token')!;
  assert.is((await t.post('/api/auth/reset-password', { token: resetToken, password: newPassword })).status, 200);
  const again = await t.post('/api/auth/login', { email: 'leak@example.com', password: newPassword });
  await t.post(
    '/api/me/email/change/begin',
    { new_email: 'moved@example.com', password: newPassword },
    bearer(again.body.token),
  );
  const changeCode = (await waitForMail(t, 'moved@example.com')).code!;
  await t.deps.stores.flush();

  const disk = readAll(dataDir);
  assert.ok(disk.includes('leak@example.com'), 'the test reads the real files');
  const secrets = {
    password,
    newPassword,
    code,
    changeCode,
    resetToken,
    invite,
    signup: signup.body.token,
    verified: verified.body.token,
    login: login.body.token,
    again: again.body.token,
  };
  for (const [name, value] of Object.entries(secrets)) {
    assert.ok(value && value.length >= 6, name);
    // A 6-digit code could occur by chance inside a hash or salt; count only a standalone occurrence.
    const standalone = new RegExp(
      `(?<![0-9A-Za-z+/_-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z+/_-])`,
    );
    assert.not.ok(value.length > 6 ? disk.includes(value) : standalone.test(disk), `${name} is stored in plaintext`);
  }
  // Invite codes are also refused in their dash-less form.
  assert.not.ok(disk.includes(invite.replace(/-/g, '')));
});

test.run();
