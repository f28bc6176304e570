import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { formatKey } from '../../../shared/keys.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey, rotateAccountKey } from '../../helpers/keys.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

async function setUp(t: TestApp) {
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u, 'Acme');
  const { key, id } = await createSecretKey(t, u, co.id);
  return { u, co, key, id };
}

test('POST /api/mcp/validate names the user and Company the keys resolve to', async () => {
  const t = await createTestApp();
  const { u, co, key, id } = await setUp(t);
  const res = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}` });
  assert.is(res.status, 200);
  assert.equal(res.body, {
    ok: true,
    user: { id: u.user.id, email: u.user.email },
    company: { id: co.id, name: 'Acme' },
    account_key: false,
    key_id: id,
    tier: 'company',
  });
  const ak = await rotateAccountKey(t, u);
  const both = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}`, 'x-api-key': ak });
  assert.is(both.body.account_key, true);
});

test('malformed keys → 401 before any lookup: wrong prefix, bad checksum, wrong length, a JWT (case 16)', async () => {
  const t = await createTestApp();
  const { u, key } = await setUp(t);
  let lookups = 0;
  const find = t.deps.stores.keys.findSecretKeyWithOwner;
  t.deps.stores.keys.findSecretKeyWithOwner = (h) => (lookups++, find(h));
  const flipped = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
  const bad = [
    'ak_' + key.slice(3),
    'pk_' + key.slice(3),
    flipped,
    key.slice(0, -1),
    key + 'x',
    u.token,
    'sk_',
    'sk_short',
  ];
  for (const value of bad) {
    const res = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${value}` });
    assert.is(res.status, 401, value);
    assert.is(res.body.code, 'malformed_key', value);
  }
  assert.is(lookups, 0);
  const unknown = await t.post('/api/mcp/validate', undefined, {
    authorization: `Bearer ${formatKey('secret', randomBytes(32))}`,
  });
  assert.is(unknown.status, 401);
  assert.is(unknown.body.code, 'invalid_key');
  assert.is(lookups, 1);
  assert.is((await t.post('/api/mcp/validate')).status, 401);
});

test("X-Api-Key: a JWT, a malformed or unknown ak_, or another user's ak_ → 401 (cases 16)", async () => {
  const t = await createTestApp();
  const { u, key } = await setUp(t);
  const other = await createUser(t, { tier: 'company' });
  const otherAk = await rotateAccountKey(t, other);
  const ownAk = await rotateAccountKey(t, u);
  const cases: [string, string][] = [
    [u.token, 'malformed_key'],
    [key, 'malformed_key'],
    [ownAk.slice(0, -1), 'malformed_key'],
    [formatKey('account', randomBytes(32)), 'invalid_key'],
    [otherAk, 'account_key_mismatch'],
  ];
  for (const [ak, code] of cases) {
    const res = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}`, 'x-api-key': ak });
    assert.is(res.status, 401, ak);
    assert.is(res.body.code, code, ak);
  }
});

test("tier gate after authentication: a downgraded user's key → 402; a bad key on a trial account → 401 (case 17)", async () => {
  const t = await createTestApp();
  const { u, key } = await setUp(t);
  await t.deps.stores.users.setTier(u.user.id, 'starter');
  const res = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}` });
  assert.is(res.status, 402);
  assert.is(res.body.code, 'subscription_required');
  assert.match(res.body.error, /MCP access requires a Company subscription/);
  assert.is(
    (await t.post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${key}` }))
      .status,
    402,
  );
  const bad = await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key.slice(0, -2)}xx` });
  assert.is(bad.status, 401);
  await t.deps.stores.users.setTier(u.user.id, 'owner');
  assert.is((await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}` })).status, 200);
});

test('last_used_at is recorded, and written at most once a minute per key', async () => {
  const t = await createTestApp();
  const { u, key } = await setUp(t);
  let writes = 0;
  const touch = t.deps.stores.keys.touch;
  t.deps.stores.keys.touch = (...args) => (writes++, touch(...args));
  const call = () => t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${key}` });
  const first = t.clock.now();
  for (let i = 0; i < 5; i++) assert.is((await call()).status, 200);
  assert.is(writes, 1);
  t.clock.advance(59_000);
  await call();
  assert.is(writes, 1);
  t.clock.advance(1_000);
  await call();
  assert.is(writes, 2);
  const [row] = (await t.get('/api/keys', u.auth)).body.keys;
  assert.is(row.last_used_at, new Date(first + 60_000).toISOString());
});

test.run();
