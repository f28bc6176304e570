import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey, echoRuntimes, mountEchoRoute } from '../../helpers/keys.js';
import { createTestApp } from '../../helpers/test-app.js';

async function setUp() {
  const runtimes = echoRuntimes();
  const t = await createTestApp({ runtimes, extend: mountEchoRoute });
  const alice = await createUser(t, { tier: 'company' });
  const bob = await createUser(t, { tier: 'company' });
  const a1 = await createCompany(t, alice, 'A1');
  const a2 = await createCompany(t, alice, 'A2');
  const b1 = await createCompany(t, bob, 'B1');
  return { t, runtimes, alice, bob, a1, a2, b1 };
}

test('no Company selection → exactly 400 { error: "X-Company header required", code }', async () => {
  const { t, alice } = await setUp();
  for (const path of ['/api/agents', '/api/events?limit=5', '/api/quests/q1']) {
    const res = await t.get(path, alice.auth);
    assert.is(res.status, 400);
    assert.is(res.body.error, 'X-Company header required');
    assert.is(res.body.code, 'company_required');
  }
  assert.is((await t.post('/api/agents', { name: 'x' }, { ...alice.auth, 'x-company': '  ' })).status, 400);
});

test('selection order: X-Company, then X-Entity, then company_id, then trust_id; the tenant reaches the runtime', async () => {
  const { t, runtimes, alice, a1, a2 } = await setUp();
  const atCreation = runtimes.opened.length; // every Company's runtime opens when it is created
  const pick = async (url: string, headers: Record<string, string> = {}) =>
    (await t.get(url, { ...alice.auth, ...headers })).body.company.id;
  assert.is(await pick('/api/echo', { 'x-company': a1.id, 'x-entity': a2.id }), a1.id);
  assert.is(await pick(`/api/echo?company_id=${a1.id}`, { 'x-entity': a2.id }), a2.id);
  assert.is(await pick(`/api/echo?company_id=${a2.id}&trust_id=${a1.id}`), a2.id);
  assert.is(await pick(`/api/echo?trust_id=${a1.id}`), a1.id);
  const res = await t.post('/api/echo', { name: 'bot' }, { ...alice.auth, 'x-company': a1.id });
  assert.equal(res.body, {
    company: { id: a1.id, name: 'A1', owner_id: alice.user.id },
    user_id: alice.user.id,
    via: 'session',
    key_id: null,
    path: '/api/echo',
    body: { name: 'bot' },
  });
  assert.ok(runtimes.opened.slice(atCreation).every((c) => c.owner_id === alice.user.id));
});

test("another user's Company → 403, unknown → 404, and the runtime is never opened (case 15)", async () => {
  const { t, runtimes, alice, b1 } = await setUp();
  const opened = runtimes.opened.length;
  for (const headers of <Record<string, string>[]>[{ 'x-company': b1.id }, { 'x-entity': b1.id }]) {
    const res = await t.get('/api/agents', { ...alice.auth, ...headers });
    assert.is(res.status, 403);
    assert.is(res.body.code, 'company_forbidden');
  }
  assert.is((await t.get(`/api/agents?company_id=${b1.id}`, alice.auth)).status, 403);
  const unknown = await t.get('/api/agents', { ...alice.auth, 'x-company': 'cmp_nope' });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'company_not_found');
  assert.is(runtimes.opened.length, opened);
});

test("a secret key selects its own Company; naming another (even the same owner's) → 403 (case 15)", async () => {
  const { t, alice, a1, a2, b1 } = await setUp();
  const { key, id } = await createSecretKey(t, alice, a1.id);
  const sk = { authorization: `Bearer ${key}` };
  const own = await t.get('/api/echo', sk);
  assert.is(own.status, 200);
  assert.is(own.body.company.id, a1.id);
  assert.is(own.body.via, 'secret_key');
  assert.is(own.body.key_id, id);
  assert.is((await t.get('/api/echo', { ...sk, 'x-company': a1.id })).status, 200);
  for (const other of [a2.id, b1.id, 'cmp_unknown']) {
    const res = await t.get('/api/echo', { ...sk, 'x-company': other });
    assert.is(res.status, 403, other);
    assert.is(res.body.code, 'company_forbidden');
  }
  assert.is((await t.get(`/api/echo?company_id=${b1.id}`, sk)).status, 403);
});

test('a secret key on the gateway passes the same checks: revoked → 401, downgraded → 402', async () => {
  const { t, alice, a1 } = await setUp();
  const { key, id } = await createSecretKey(t, alice, a1.id);
  await t.deps.stores.users.setTier(alice.user.id, 'trial');
  assert.is((await t.get('/api/echo', { authorization: `Bearer ${key}` })).status, 402);
  await t.deps.stores.users.setTier(alice.user.id, 'company');
  await t.del(`/api/keys/${id}`, alice.auth);
  assert.is((await t.get('/api/echo', { authorization: `Bearer ${key}` })).status, 401);
});

test('authentication comes first: no or bad credentials → 401 on runtime routes; unverified → 403', async () => {
  const { t, a1 } = await setUp();
  assert.is((await t.get('/api/agents', { 'x-company': a1.id })).status, 401);
  assert.is((await t.get('/api/agents')).status, 401);
  assert.is((await t.get('/api/agents', { authorization: 'Bearer junk', 'x-company': a1.id })).status, 401);
  const pending = await createUser(t, { verified: false });
  assert.is((await t.get('/api/agents', { ...pending.auth, 'x-company': a1.id })).status, 403);
});

test('non-tenant paths are never tenant routes: unknown ones 404 normally; an unanswered runtime path 404s', async () => {
  const { t, runtimes, alice, a1 } = await setUp();
  const openedAtCreation = runtimes.opened.length; // creating a Company opens its runtime (so its schedules run)
  for (const path of [
    '/api/auth/nope',
    '/api/me/nope',
    '/api/keys/x/y',
    '/api/account/nope',
    '/api/companies/x/y',
    '/api/billing/nope',
    '/api/mcp/nope',
    '/api/dev/nope',
    '/nope',
    '/api',
    '/api/',
  ]) {
    const res = await t.get(path, { ...alice.auth, 'x-company': a1.id });
    assert.ok(res.status === 404 || res.status === 405 || res.status === 401, `${path} → ${res.status}`);
    assert.is.not(res.body?.code, 'company_required', path);
  }
  assert.is((await t.get('/api/auth/nope', alice.auth)).body.code, 'route_not_found');
  assert.is(runtimes.opened.length, openedAtCreation);
  const silent = await t.get('/api/nothing-here', { ...alice.auth, 'x-company': a1.id });
  assert.is(silent.status, 404);
  assert.is(silent.body.code, 'route_not_found');
  assert.is((await t.get('/healthz')).status, 200);
  // Which paths exist is public (the API is documented): an unknown one, or a known one with another
  // method, is answered as such before any credential is read, and opens no runtime.
  const bare = await t.get('/api/nothing-here');
  assert.equal([bare.status, bare.body.code], [404, 'route_not_found']);
  const wrongMethod = await t.request({ method: 'PUT', url: '/api/agents' });
  assert.equal([wrongMethod.status, wrongMethod.body.code], [405, 'method_not_allowed']);
  assert.is(runtimes.opened.length, openedAtCreation);
});

test.run();
