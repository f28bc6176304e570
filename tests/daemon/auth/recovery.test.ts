import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { settledMail, waitForMail } from '../../helpers/mail.js';
import { bearer, GOOD_PASSWORD, signUp } from '../../helpers/signup.js';

const NEW_PASSWORD = 'a brand new long password';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

test('forgot-password: same answer for known and unknown e-mails; only the known one gets a link', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'fp@example.com' });
  const known = await t.post('/api/auth/forgot-password', { email: 'fp@example.com' });
  const unknown = await t.post('/api/auth/forgot-password', { email: 'nobody@example.com' });
  assert.is(known.status, 200);
  assert.is(unknown.status, 200);
  const strip = (b: any) => ({ ...b, request_id: undefined, message: b.message.replace(/\S+@\S+/, 'E') });
  assert.equal(strip(known.body), strip(unknown.body));
  const mail = await waitForMail(t, 'fp@example.com');
  assert.is(mail.code, null);
  assert.match(mail.link!, /\/auth\/reset\?token=[A-Za-z0-9_-]{43}$/);
  assert.equal(await settledMail(t, 'nobody@example.com'), []);
});

test('reset-password sets the password, revokes every session, and the link is single use', async () => {
  const t = await createTestApp();
  const { token, password } = await createUser(t, { email: 'rp@example.com' });
  const other = await t.post('/api/auth/login', { email: 'rp@example.com', password });
  await t.post('/api/auth/forgot-password', { email: 'rp@example.com' });
  const link = tokenOf((await waitForMail(t, 'rp@example.com')).link!);

  const weak = await t.post('/api/auth/reset-password', { token: link, password: 'short' });
  assert.is(weak.body.code, 'password_invalid');
  const res = await t.post('/api/auth/reset-password', { token: link, password: NEW_PASSWORD });
  assert.is(res.status, 200);
  assert.is(res.body.revoked_sessions, 2);
  // attack 9: a reset kills all sessions
  assert.is((await t.get('/api/me', bearer(token))).status, 401);
  assert.is((await t.get('/api/me', bearer(other.body.token))).status, 401);
  assert.is((await t.post('/api/auth/login', { email: 'rp@example.com', password })).status, 401);
  assert.is((await t.post('/api/auth/login', { email: 'rp@example.com', password: NEW_PASSWORD })).status, 200);
  const again = await t.post('/api/auth/reset-password', { token: link, password: 'yet another long password' });
  assert.is(again.status, 400);
  assert.is(again.body.code, 'reset_token_invalid');
});

test('the reset link opens a page of the daemon that changes nothing by itself', async () => {
  const t = await createTestApp();
  const { password } = await createUser(t, { email: 'page@example.com' });
  await t.post('/api/auth/forgot-password', { email: 'page@example.com' });
  const link = (await waitForMail(t, 'page@example.com')).link!;
  const url = new URL(link);
  assert.is(url.pathname, '/auth/reset');
  const page = await t.get(url.pathname + url.search);
  assert.is(page.status, 200);
  assert.match(String(page.headers['content-type']), 'text/html');
  assert.match(String(page.headers['content-security-policy']), "default-src 'none'");
  assert.is(page.headers['cache-control'], 'no-store');
  assert.is(page.headers['referrer-policy'], 'no-referrer');
  assert.match(page.text, '/api/auth/reset-password');
  // Opening the page (as a mail scanner would) spent nothing: the old password still works, the token still resets.
  assert.is((await t.post('/api/auth/login', { email: 'page@example.com', password })).status, 200);
  assert.is(
    (await t.post('/api/auth/reset-password', { token: url.searchParams.get('token'), password: NEW_PASSWORD })).status,
    200,
  );
});

test('a reset link expires after 30 minutes; a newer link voids the older', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'exp@example.com' });
  await t.post('/api/auth/forgot-password', { email: 'exp@example.com' });
  const first = tokenOf((await waitForMail(t, 'exp@example.com')).link!);
  t.clock.advance(61_000);
  await t.post('/api/auth/forgot-password', { email: 'exp@example.com' });
  const second = tokenOf((await waitForMail(t, 'exp@example.com', (m) => !m.link!.endsWith(first))).link!);
  assert.is((await t.post('/api/auth/reset-password', { token: first, password: NEW_PASSWORD })).status, 400);
  t.clock.advance(30 * 60_000 + 1000);
  assert.is((await t.post('/api/auth/reset-password', { token: second, password: NEW_PASSWORD })).status, 400);
});

test('a reset proves the mailbox: an unverified account becomes verified', async () => {
  const t = await createTestApp();
  await signUp(t, 'squat@example.com');
  await t.post('/api/auth/forgot-password', { email: 'squat@example.com' });
  const link = tokenOf((await waitForMail(t, 'squat@example.com', (m) => m.link !== null)).link!);
  assert.is((await t.post('/api/auth/reset-password', { token: link, password: NEW_PASSWORD })).status, 200);
  const login = await t.post('/api/auth/login', { email: 'squat@example.com', password: NEW_PASSWORD });
  assert.is(login.body.pending_verification, undefined);
  assert.is((await t.get('/api/me', bearer(login.body.token))).body.email_verified, true);
});

test('forgot-password is limited per e-mail (1 per minute) and answers 429 alike for unknown addresses', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'lim@example.com' });
  for (const email of ['lim@example.com', 'nolim@example.com']) {
    assert.is((await t.post('/api/auth/forgot-password', { email })).status, 200);
    assert.is((await t.post('/api/auth/forgot-password', { email })).status, 429);
  }
});

test('change-password needs the current password, keeps this session and revokes the others', async () => {
  const t = await createTestApp();
  const { token, password, auth } = await createUser(t, { email: 'cp@example.com' });
  const other = (await t.post('/api/auth/login', { email: 'cp@example.com', password })).body.token;
  await t.post('/api/auth/forgot-password', { email: 'cp@example.com' });
  const link = tokenOf((await waitForMail(t, 'cp@example.com')).link!);

  const wrong = await t.post(
    '/api/auth/change-password',
    { current_password: 'not my password at all', new_password: NEW_PASSWORD },
    auth,
  );
  assert.is(wrong.status, 400);
  assert.is(wrong.body.code, 'invalid_credentials');
  const weak = await t.post('/api/auth/change-password', { current_password: password, new_password: 'short' }, auth);
  assert.is(weak.body.code, 'password_invalid');
  const ok = await t.post(
    '/api/auth/change-password',
    { current_password: password, new_password: NEW_PASSWORD },
    auth,
  );
  assert.is(ok.status, 200);
  assert.is(ok.body.revoked_sessions, 1);
  assert.is((await t.get('/api/me', bearer(token))).status, 200);
  assert.is((await t.get('/api/me', bearer(other))).status, 401);
  assert.is((await t.post('/api/auth/login', { email: 'cp@example.com', password: NEW_PASSWORD })).status, 200);
  // An outstanding reset link dies with the change.
  assert.is(
    (await t.post('/api/auth/reset-password', { token: link, password: 'yet another long password' })).status,
    400,
  );
  assert.ok((await settledMail(t, 'cp@example.com')).some((m) => m.subject.includes('changed')));
  assert.ok(GOOD_PASSWORD);
});

test.run();
