import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPassword } from '../../../daemon/auth/passwords.js';
import { createUser } from '../../helpers/accounts.js';
import { mailAfter } from '../../helpers/mail.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/**
 * Account pre-hijacking: an attacker signs up with the victim's address (unverified, with a password
 * the attacker knows). The victim later logs in with an e-mailed code or link, which verifies the
 * address. The attacker's password must not survive that, or it logs into the victim's verified account.
 */
async function mailFor(t: TestApp, email: string) {
  const mail = await mailAfter(t, email, async () => {
    assert.is((await t.post('/api/auth/login/code/request', { email })).status, 200);
  });
  return { code: mail.code!, token: new URL(mail.link!).searchParams.get('token')! };
}

async function assertAttackerLockedOut(t: TestApp, attacker: Awaited<ReturnType<typeof createUser>>) {
  const user = (await t.deps.stores.users.findById(attacker.user.id))!;
  assert.ok(user.email_verified_at, 'the code proved the mailbox');
  const passwordStillWorks = user.password_hash
    ? await verifyPassword(attacker.password, user.password_hash, t.deps.config.auth.passwordHash.maxmem)
    : false;
  assert.not.ok(passwordStillWorks, 'the password chosen before the mailbox was proven no longer works');
  // The attacker's signup session (unverified) is ended too.
  assert.is((await t.get('/api/auth/totp', attacker.auth)).status, 401);
}

test('login code on a never-verified account: the signup password and sessions do not survive', async () => {
  const t = await createTestApp();
  const attacker = await createUser(t, { email: 'victim@example.com', verified: false });
  const { code } = await mailFor(t, 'victim@example.com');
  const login = await t.post('/api/auth/login/code/consume', { email: 'victim@example.com', code });
  assert.is(login.status, 200);
  await assertAttackerLockedOut(t, attacker);
  // The victim's new session works.
  assert.is((await t.get('/api/auth/totp', { authorization: `Bearer ${login.body.token}` })).status, 200);
});

test('magic link on a never-verified account: the same', async () => {
  const t = await createTestApp();
  const attacker = await createUser(t, { email: 'victim2@example.com', verified: false });
  const { token } = await mailFor(t, 'victim2@example.com');
  const login = await t.post('/api/auth/login/magic/consume', { token });
  assert.is(login.status, 200);
  await assertAttackerLockedOut(t, attacker);
});

test('login code on a verified account keeps its password and its other sessions', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { code } = await mailFor(t, u.user.email!);
  assert.is((await t.post('/api/auth/login/code/consume', { email: u.user.email, code })).status, 200);
  const user = (await t.deps.stores.users.findById(u.user.id))!;
  assert.ok(await verifyPassword(u.password, user.password_hash!, t.deps.config.auth.passwordHash.maxmem));
  assert.is((await t.get('/api/auth/totp', u.auth)).status, 200);
});

test.run();
