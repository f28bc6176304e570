import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalEmail } from '../../../shared/email.js';
import { hashPassword } from '../../../daemon/auth/passwords.js';
import { isoAt } from '../../../daemon/clock.js';
import { createTestApp, CHEAP_AUTH } from '../../helpers/test-app.js';
import { newInvite, signUpVerified, GOOD_PASSWORD } from '../../helpers/signup.js';
import { settledMail } from '../../helpers/mail.js';

// One mailbox must be one account: no second account through another spelling, no invisible
// characters accepted, and login codes take the non-ASCII addresses every other route takes.
test('one mailbox is one address: trailing dot, quotes, case, full-width and punycode/Unicode spellings', () => {
  const same = (a: string, b: string) => assert.equal(canonicalEmail(a), canonicalEmail(b), `${a} vs ${b}`);
  same('ada@example.com', 'Ada@Example.COM.');
  same('ada@example.com', '"ada"@example.com');
  same('ada@example.com', 'ａｄａ@example.com');
  same('zoë@bücher.example', 'ZOË@xn--bcher-kva.example');
  assert.equal(canonicalEmail('zoë@xn--bcher-kva.example'), { ok: true, email: 'zoë@bücher.example' });
  for (const bad of [
    'a\u200bda@example.com',
    'ada@exa\u00admple.com',
    'a\u200dda@example.com',
    'ad\ufeffa@example.com',
    'ada\u202e@example.com',
    '"a b"@example.com',
    'ada@example',
    'a..b@example.com',
    'ada@[127.0.0.1]',
  ]) {
    assert.not.ok(canonicalEmail(bad).ok, JSON.stringify(bad));
  }
});

test('signing up again under another spelling of the same address makes no second account', async () => {
  const t = await createTestApp();
  await signUpVerified(t, 'ada@example.com');
  const first = (await t.deps.stores.users.findByEmail('ada@example.com'))!;
  for (const spelling of ['Ada@Example.com.', '"ada"@example.com', 'ADA@EXAMPLE.COM']) {
    t.clock.advance(61_000); // past the per-address signup bucket: that it is shared is itself the point
    const res = await t.post('/api/auth/signup', {
      email: spelling,
      password: GOOD_PASSWORD,
      invite_code: await newInvite(t),
    });
    assert.is(res.status, 200);
    assert.is((await t.deps.stores.users.findByEmail('ada@example.com'))!.id, first.id);
    const oldForm = spelling.toLowerCase();
    if (oldForm !== 'ada@example.com')
      assert.is(await t.deps.stores.users.findByEmail(oldForm), undefined, `no second account ${oldForm}`);
    const login = await t.post('/api/auth/login', { email: spelling, password: GOOD_PASSWORD });
    assert.is(login.status, 200, `${spelling} logs in to the one account`);
  }
  await settledMail(t, 'ada@example.com');
  await signUpVerified(t, 'zoë@bücher.example');
  t.clock.advance(61_000);
  const puny = await t.post('/api/auth/signup', {
    email: 'zoë@xn--bcher-kva.example',
    password: GOOD_PASSWORD,
    invite_code: await newInvite(t),
  });
  assert.is(puny.status, 200);
  assert.is(
    await t.deps.stores.users.findByEmail('zoë@xn--bcher-kva.example'),
    undefined,
    'no account under the punycode spelling',
  );
});

test('invisible characters are refused on every route that takes an address, with the reason', async () => {
  const t = await createTestApp();
  const email = 'a\u200bda@example.com';
  const routes: [string, Record<string, unknown>][] = [
    ['/api/auth/signup', { email, password: GOOD_PASSWORD, invite_code: 'XXXX-XXXX-XXXX-XXXX' }],
    ['/api/auth/login', { email, password: GOOD_PASSWORD }],
    ['/api/auth/login/code/request', { email }],
    ['/api/auth/forgot-password', { email }],
  ];
  for (const [url, body] of routes) {
    const res = await t.post(url, body);
    assert.is(res.status, 400, `${url}: ${res.text}`);
    assert.match(res.text, /invisible/);
  }
});

test('a non-ASCII address gets a login code: the login-code route takes it as every other route does', async () => {
  const t = await createTestApp();
  await signUpVerified(t, 'zoë@bücher.example');
  const res = await t.post('/api/auth/login/code/request', { email: 'Zoë@xn--bcher-kva.example' });
  assert.is(res.status, 200, res.text);
  const mail = await settledMail(t, 'zoë@bücher.example');
  assert.ok(mail.some((m) => m.code !== null && /login code/.test(m.subject)));
});

test('an account stored before the normalisation (trailing-dot domain) still logs in', async () => {
  const t = await createTestApp();
  const now = isoAt(t.clock.now());
  await t.deps.stores.users.create({
    id: t.deps.ids('usr'),
    email: 'old@example.com.',
    tier: 'trial',
    created_at: now,
    email_verified_at: now,
    password_hash: await hashPassword(GOOD_PASSWORD, CHEAP_AUTH.passwordHash),
    password_changed_at: now,
  });
  const res = await t.post('/api/auth/login', { email: 'old@example.com.', password: GOOD_PASSWORD });
  assert.is(res.status, 200, res.text);
});

test.run();
