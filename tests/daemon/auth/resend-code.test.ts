import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { mailAfter, settledMail, waitForMail } from '../../helpers/mail.js';
import { bearer, GOOD_PASSWORD, newInvite, signUp } from '../../helpers/signup.js';

test('attack 4: resend right after signup → 429 with Retry-After; after the window the new code works, the old does not', async () => {
  const t = await createTestApp();
  const { code: old, token } = await signUp(t, 'slow@example.com');
  const early = await t.post('/api/auth/resend-code', {}, bearer(token));
  assert.is(early.status, 429);
  assert.is(early.body.code, 'rate_limited');
  assert.ok(Number(early.headers['retry-after']) > 0 && Number(early.headers['retry-after']) <= 60);
  const byEmail = await t.post('/api/auth/resend-code', { email: 'slow@example.com' });
  assert.is(byEmail.status, 429, 'the {email} form shares the bucket');
  t.clock.advance(60_000);
  assert.is((await t.post('/api/auth/resend-code', {}, bearer(token))).status, 200);
  const fresh = await waitForMail(t, 'slow@example.com', (m) => m.code !== old);
  assert.is((await t.post('/api/auth/verify', { email: 'slow@example.com', code: old })).status, 400);
  assert.is((await t.post('/api/auth/verify', { email: 'slow@example.com', code: fresh.code })).status, 200);
});

test('signup + resend bucket: at most 5 codes per hour per e-mail', async () => {
  const t = await createTestApp();
  const { token } = await signUp(t, 'hour@example.com');
  const statuses = [];
  for (let i = 0; i < 5; i++) {
    t.clock.advance(61_000);
    statuses.push((await t.post('/api/auth/resend-code', {}, bearer(token))).status);
  }
  assert.equal(statuses, [200, 200, 200, 200, 429]);
});

test("strangers cannot spend the owner's resend: {email} asks and a stranger's signup leave the owner's own resend working", async () => {
  const t = await createTestApp();
  const email = 'owner@example.com';
  const { token, code: first } = await signUp(t, email);
  t.clock.advance(61_000);
  // Someone holding an invite tries the taken address: the decoy answer.
  const decoy = await t.post('/api/auth/signup', { email, password: GOOD_PASSWORD, invite_code: await newInvite(t) });
  assert.is(decoy.status, 200);
  // Someone asks by {email} until refused: the address is still protected from a mail bomb.
  const asks = [];
  for (let i = 0; i < 4; i++) {
    t.clock.advance(61_000);
    asks.push((await t.post('/api/auth/resend-code', { email })).status);
  }
  assert.equal(asks, [200, 200, 200, 429], 'the {email} form: 5 codes an hour per address, the signup included');
  // The owner, with their signup session, still gets a new code at once, and it verifies.
  const fresh = await mailAfter(t, email, async () => {
    const own = await t.post('/api/auth/resend-code', {}, bearer(token));
    assert.is(own.status, 200, JSON.stringify(own.body));
  });
  assert.is.not(fresh.code, first);
  assert.is((await t.post('/api/auth/verify', { email, code: fresh.code })).status, 200);
});

test('resend by {email}: the same answer for unknown, unverified and verified addresses', async () => {
  const t = await createTestApp();
  await signUp(t, 'wait@example.com');
  t.clock.advance(61_000);
  const known = await t.post('/api/auth/resend-code', { email: 'wait@example.com' });
  const unknown = await t.post('/api/auth/resend-code', { email: 'ghost@example.com' });
  assert.is(known.status, 200);
  assert.is(unknown.status, 200);
  assert.equal(Object.keys(known.body), Object.keys(unknown.body));
  assert.is((await settledMail(t, 'wait@example.com')).length, 2);
  assert.is((await settledMail(t, 'ghost@example.com')).length, 0);
  assert.is((await t.post('/api/auth/resend-code', {})).status, 400);
});

test.run();
