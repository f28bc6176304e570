import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { settledMail, waitForMail } from '../../helpers/mail.js';
import { bearer, GOOD_PASSWORD, newInvite, signUp } from '../../helpers/signup.js';
import { verifyToken } from '../../../daemon/auth/tokens.js';

test('signup returns an unverified token and e-mails a 6-digit code; verify returns a full token', async () => {
  const t = await createTestApp();
  const invite = await newInvite(t);
  const res = await t.post('/api/auth/signup', {
    email: 'Ann@Example.com',
    password: GOOD_PASSWORD,
    invite_code: invite,
  });
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.pending_verification, true);
  const claims = verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!;
  assert.is(claims.typ, 'unverified');
  assert.is(claims.email, 'ann@example.com');
  const mail = await waitForMail(t, 'ann@example.com');
  assert.match(mail.code!, /^\d{6}$/);
  assert.ok(mail.text.includes(mail.code!));

  const me = await t.get('/api/me', bearer(res.body.token));
  assert.is(me.status, 200);
  assert.is(me.body.email_verified, false);
  assert.is(me.body.pending_verification, true);

  const verified = await t.post('/api/auth/verify', { email: 'ann@example.com', code: mail.code });
  assert.is(verified.status, 200);
  assert.equal(Object.keys(verified.body).sort(), ['ok', 'token']);
  assert.is(verifyToken(t.deps.secrets.jwtSecret, verified.body.token, t.clock.now())!.typ, 'session');
  const after = await t.get('/api/me', bearer(verified.body.token));
  assert.is(after.body.email_verified, true);
  // The signup token's session ended with verification.
  assert.is((await t.get('/api/me', bearer(res.body.token))).status, 401);
});

test('a bad or used invite creates nothing and sends nothing', async () => {
  const t = await createTestApp();
  const bad = await t.post('/api/auth/signup', {
    email: 'a@example.com',
    password: GOOD_PASSWORD,
    invite_code: 'AAAA-BBBB-CCCC-DDDD',
  });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'invite_invalid');
  assert.is(await t.deps.stores.users.findByEmail('a@example.com'), undefined);
  const invite = await newInvite(t);
  assert.is(
    (await t.post('/api/auth/signup', { email: 'b@example.com', password: GOOD_PASSWORD, invite_code: invite })).status,
    200,
  );
  const reused = await t.post('/api/auth/signup', {
    email: 'c@example.com',
    password: GOOD_PASSWORD,
    invite_code: invite,
  });
  assert.is(reused.body.code, 'invite_invalid');
  assert.is(await t.deps.stores.users.findByEmail('c@example.com'), undefined);
  assert.equal(await settledMail(t, 'a@example.com'), []);
  assert.equal(await settledMail(t, 'c@example.com'), []);
});

test('signup validates the e-mail and the password length (12-128)', async () => {
  const t = await createTestApp();
  const invite = await newInvite(t);
  const short = await t.post('/api/auth/signup', { email: 'a@example.com', password: 'short', invite_code: invite });
  assert.is(short.status, 400);
  assert.is(short.body.code, 'password_invalid');
  const long = await t.post('/api/auth/signup', {
    email: 'b@example.com',
    password: 'x'.repeat(129),
    invite_code: invite,
  });
  assert.is(long.body.code, 'password_invalid');
  const email = await t.post('/api/auth/signup', {
    email: 'not-an-email',
    password: GOOD_PASSWORD,
    invite_code: invite,
  });
  assert.is(email.status, 400);
  assert.is(email.body.code, 'validation_failed');
  assert.match(email.body.error, 'email');
  // The invite survived every refusal.
  assert.is(
    (await t.post('/api/auth/signup', { email: 'c@example.com', password: GOOD_PASSWORD, invite_code: invite })).status,
    200,
  );
});

test('signup with a taken e-mail: same status and body shape, invite unspent, owner told', async () => {
  const t = await createTestApp();
  await signUp(t, 'owner@example.com');
  t.clock.advance(61_000);
  const invite = await newInvite(t);
  const res = await t.post('/api/auth/signup', {
    email: 'OWNER@example.com',
    password: 'another long password',
    invite_code: invite,
  });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['ok', 'pending_verification', 'token']);
  assert.is(verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!.typ, 'unverified');
  // The decoy opens nothing.
  assert.is((await t.get('/api/me', bearer(res.body.token))).status, 401);
  const notice = await waitForMail(t, 'owner@example.com', (m) => m.subject.includes('tried'));
  assert.is(notice.code, null);
  const reuse = await t.post('/api/auth/signup', {
    email: 'new@example.com',
    password: GOOD_PASSWORD,
    invite_code: invite,
  });
  assert.is(reuse.status, 200, 'the invite was not spent on the taken e-mail');
  assert.ok(await t.deps.stores.users.findByEmail('new@example.com'));
});

test('attack 1: 20 parallel verifies with the right code → exactly one token', async () => {
  const t = await createTestApp();
  const { code } = await signUp(t, 'par@example.com');
  const results = await Promise.all(
    Array.from({ length: 20 }, () => t.post('/api/auth/verify', { email: 'par@example.com', code })),
  );
  assert.is(results.filter((r) => r.status === 200).length, 1);
  assert.ok(results.filter((r) => r.status !== 200).every((r) => r.body.code === 'invalid_code'));
});

test('attack 2: 5 wrong codes burn it; the right one then fails until a resend', async () => {
  const t = await createTestApp();
  const { code, token } = await signUp(t, 'burn@example.com');
  const wrong = code === '000000' ? '111111' : '000000';
  const answers = [];
  for (let i = 0; i < 5; i++)
    answers.push((await t.post('/api/auth/verify', { email: 'burn@example.com', code: wrong })).body.code);
  assert.equal(answers, ['invalid_code', 'invalid_code', 'invalid_code', 'invalid_code', 'code_burned']);
  assert.is((await t.post('/api/auth/verify', { email: 'burn@example.com', code })).status, 400);
  t.clock.advance(60_000);
  assert.is((await t.post('/api/auth/resend-code', {}, bearer(token))).status, 200);
  const fresh = await waitForMail(t, 'burn@example.com', (m) => m.code !== code);
  assert.is((await t.post('/api/auth/verify', { email: 'burn@example.com', code: fresh.code })).status, 200);
});

test('attack 3: the right code after 10 min + 1 s is expired; twice → the second is refused', async () => {
  const t = await createTestApp();
  const { code } = await signUp(t, 'late@example.com');
  t.clock.advance(10 * 60_000 + 1000);
  const late = await t.post('/api/auth/verify', { email: 'late@example.com', code });
  assert.is(late.body.code, 'code_expired');
  const t2 = await createTestApp();
  const again = await signUp(t2, 'twice@example.com');
  assert.is((await t2.post('/api/auth/verify', { email: 'twice@example.com', code: again.code })).status, 200);
  assert.is((await t2.post('/api/auth/verify', { email: 'twice@example.com', code: again.code })).status, 400);
});

test('attack 10: a code issued for e-mail A used with e-mail B is refused', async () => {
  const t = await createTestApp();
  const a = await signUp(t, 'a@example.com');
  await signUp(t, 'b@example.com');
  const res = await t.post('/api/auth/verify', { email: 'b@example.com', code: a.code });
  // (a 1-in-a-million chance that B's own code equals A's is accepted by this test)
  assert.is(res.status, 400);
  assert.is((await t.post('/api/auth/verify', { email: 'a@example.com', code: a.code })).status, 200);
});

test('signup is throttled per client address (30 per 5 min across mail-sending routes)', async () => {
  const t = await createTestApp();
  let last = 0;
  for (let i = 0; i < 31; i++)
    last = (await t.post('/api/auth/forgot-password', { email: `n${i}@example.com` })).status;
  assert.is(last, 429);
  const res = await t.post('/api/auth/signup', { email: 'x@example.com', password: GOOD_PASSWORD, invite_code: 'X' });
  assert.is(res.status, 429);
});

test.run();
