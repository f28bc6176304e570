import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { bearer } from '../../helpers/signup.js';

async function loginTwice(t: Awaited<ReturnType<typeof createTestApp>>, email: string) {
  const u = await createUser(t, { email });
  const second = (await t.post('/api/auth/login', { email, password: u.password }, { 'user-agent': 'laptop/2' })).body
    .token as string;
  const third = (await t.post('/api/auth/login', { email, password: u.password }, { 'user-agent': 'phone/3' })).body
    .token as string;
  return { ...u, second, third };
}

test('GET /api/auth/sessions lists live sessions with method, client and current: true on the caller', async () => {
  const t = await createTestApp();
  const { second } = await loginTwice(t, 'list@example.com');
  t.clock.advance(1000);
  const res = await t.get('/api/auth/sessions', bearer(second));
  assert.is(res.status, 200);
  assert.is(res.body.sessions.length, 3);
  const current = res.body.sessions.filter((s: any) => s.current);
  assert.is(current.length, 1);
  assert.is(current[0].user_agent, 'laptop/2');
  assert.equal(current[0].method, ['pwd']);
  assert.equal(Object.keys(current[0]).sort(), [
    'created_at',
    'current',
    'expires_at',
    'id',
    'ip',
    'last_seen_at',
    'method',
    'user_agent',
    'verified',
  ]);
});

test('attack 9: a revoked session gets 401 on its very next request', async () => {
  const t = await createTestApp();
  const { auth, second } = await loginTwice(t, 'rev@example.com');
  const target = (await t.get('/api/auth/sessions', bearer(second))).body.sessions.find((s: any) => s.current).id;
  assert.is((await t.get('/api/me', bearer(second))).status, 200);
  const res = await t.post('/api/auth/sessions/revoke', { session_id: target }, auth);
  assert.is(res.status, 200);
  assert.equal({ ok: res.body.ok, current: res.body.current }, { ok: true, current: false });
  const after = await t.get('/api/me', bearer(second));
  assert.is(after.status, 401);
  assert.is(after.body.code, 'session_revoked');
  assert.is((await t.post('/api/auth/sessions/revoke', { session_id: target }, auth)).status, 404);
});

test("attack 9: revoking another user's session id → 404 and no effect", async () => {
  const t = await createTestApp();
  const alice = await createUser(t, { email: 'alice@example.com' });
  const bob = await createUser(t, { email: 'bob@example.com' });
  const bobSession = (await t.get('/api/auth/sessions', bob.auth)).body.sessions[0].id;
  const res = await t.post('/api/auth/sessions/revoke', { session_id: bobSession }, alice.auth);
  assert.is(res.status, 404);
  assert.is(res.body.code, 'session_not_found');
  assert.is((await t.get('/api/me', bob.auth)).status, 200);
  assert.is((await t.post('/api/auth/sessions/revoke', {}, alice.auth)).status, 400);
});

test('attack 9: revoke-others keeps only the current session', async () => {
  const t = await createTestApp();
  const { token, second, third } = await loginTwice(t, 'others@example.com');
  const res = await t.post('/api/auth/sessions/revoke-others', {}, bearer(second));
  assert.equal({ ok: res.body.ok, revoked: res.body.revoked }, { ok: true, revoked: 2 });
  assert.is((await t.get('/api/me', bearer(second))).status, 200);
  assert.is((await t.get('/api/me', bearer(token))).status, 401);
  assert.is((await t.get('/api/me', bearer(third))).status, 401);
  assert.is((await t.get('/api/auth/sessions', bearer(second))).body.sessions.length, 1);
});

test('POST /api/auth/logout ends the calling session only', async () => {
  const t = await createTestApp();
  const { token, second } = await loginTwice(t, 'out@example.com');
  assert.is((await t.post('/api/auth/logout', {}, bearer(second))).status, 200);
  assert.is((await t.get('/api/me', bearer(second))).status, 401);
  assert.is((await t.get('/api/me', bearer(token))).status, 200);
});

test('last_seen_at moves on use, at most once a minute', async () => {
  const t = await createTestApp();
  const { auth } = await createUser(t, { email: 'seen@example.com' });
  const before = (await t.get('/api/auth/sessions', auth)).body.sessions[0].last_seen_at;
  t.clock.advance(120_000);
  await t.get('/api/me', auth);
  const after = (await t.get('/api/auth/sessions', auth)).body.sessions[0].last_seen_at;
  assert.ok(after > before);
});

test.run();
