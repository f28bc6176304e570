import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { settledMail } from '../../helpers/mail.js';
import { newInvite } from '../../helpers/signup.js';
import { createTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * The login ceiling and the signup/resend buckets under bursts and unknown addresses, and the
 * throttles' state outliving a restart.
 */

test('15 parallel logins with the right password all succeed: right answers never count as failures', async () => {
  const t = await createTestApp();
  const { user, password } = await createUser(t, { email: 'busy@example.com' });
  const burst = await Promise.all(
    Array.from({ length: 15 }, () => t.post('/api/auth/login', { email: user.email, password })),
  );
  assert.equal(
    burst.map((r) => r.status),
    Array(15).fill(200),
    JSON.stringify(burst.find((r) => r.status !== 200)?.body),
  );
  // Nothing was counted: nine wrong tries now still leave the account open.
  for (let i = 0; i < 9; i++)
    assert.is((await t.post('/api/auth/login', { email: user.email, password: 'wrong password here' })).status, 401);
  assert.is((await t.post('/api/auth/login', { email: user.email, password })).status, 200);
});

test("a burst of wrong passwords gets at most the ceiling's 10 checks, then the account is locked", async () => {
  const t = await createTestApp();
  const { user, password } = await createUser(t, { email: 'target@example.com' });
  const burst = await Promise.all(
    Array.from({ length: 25 }, () => t.post('/api/auth/login', { email: user.email, password: 'wrong password here' })),
  );
  assert.is(burst.filter((r) => r.status === 401).length, 10);
  assert.ok(burst.filter((r) => r.status !== 401).every((r) => r.status === 429 && r.body.code === 'account_locked'));
  const right = await t.post('/api/auth/login', { email: user.email, password });
  assert.is(right.status, 429);
  assert.is(right.headers['retry-after'], '900');
});

test("resend-code for an address with no account does not spend that address's signup bucket", async () => {
  const t = await createTestApp();
  const ghost = await t.post('/api/auth/resend-code', { email: 'future@example.com' });
  assert.is(ghost.status, 200);
  // The person signs up a moment later: their code is sent, not refused for a minute.
  const res = await t.post('/api/auth/signup', {
    email: 'future@example.com',
    password: 'correct horse battery staple',
    invite_code: await newInvite(t),
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is((await settledMail(t, 'future@example.com')).length, 1);
});

test('resend-code answers alike for unknown and waiting addresses, 429 included', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'waiting@example.com', verified: false });
  const answers = [];
  for (const email of ['waiting@example.com', 'nobody@example.com']) {
    const first = await t.post('/api/auth/resend-code', { email });
    const second = await t.post('/api/auth/resend-code', { email });
    answers.push([first.status, second.status, second.body.code, second.headers['retry-after']]);
  }
  assert.equal(answers[0], [200, 429, 'rate_limited', '60']);
  assert.equal(answers[1], answers[0]);
});

test('a lock-out and a spent bucket survive a restart of the daemon', async () => {
  const dataDir = tempDir('svc-data');
  const first = await createTestApp({ storage: 'file', dataDir });
  const { user, password } = await createUser(first, { email: 'kept@example.com' });
  for (let i = 0; i < 10; i++)
    await first.post('/api/auth/login', { email: user.email, password: 'wrong password here' });
  assert.is((await first.post('/api/auth/resend-code', { email: 'other@example.com' })).status, 200);
  await first.deps.stores.close();
  const again = await createTestApp({ storage: 'file', dataDir, clock: first.clock });
  const login = await again.post('/api/auth/login', { email: user.email, password });
  assert.is(login.status, 429);
  assert.is(login.body.code, 'account_locked');
  assert.is((await again.post('/api/auth/resend-code', { email: 'other@example.com' })).status, 429);
  again.clock.advance(15 * 60_000);
  assert.is((await again.post('/api/auth/login', { email: user.email, password })).status, 200);
  await again.deps.stores.close();
});

test.run();
