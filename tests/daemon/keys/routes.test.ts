import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keyProblem } from '../../../shared/keys.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey, rotateAccountKey } from '../../helpers/keys.js';
import { createTestApp } from '../../helpers/test-app.js';

test('POST /api/account/api-key returns a well-formed ak_ once; again → rotated, the old one fails on its next use (case 14)', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const { key: sk } = await createSecretKey(t, u, co.name);
  const first = await t.post('/api/account/api-key', undefined, u.auth);
  assert.is(first.status, 201);
  assert.is(first.body.ok, true);
  assert.is(first.body.rotated, false);
  assert.match(first.body.id, /^akey_/, 'an id must not look like the key itself');
  assert.is(keyProblem('account', first.body.api_key), null);
  const headers = (ak: string) => ({ authorization: `Bearer ${sk}`, 'x-api-key': ak });
  assert.is((await t.post('/api/mcp/validate', {}, headers(first.body.api_key))).status, 200);
  const second = await t.post('/api/account/api-key', undefined, u.auth);
  assert.is(second.body.rotated, true);
  assert.is.not(second.body.api_key, first.body.api_key);
  const old = await t.post('/api/mcp/validate', {}, headers(first.body.api_key));
  assert.is(old.status, 401);
  assert.is(old.body.code, 'invalid_key');
  assert.is((await t.post('/api/mcp/validate', {}, headers(second.body.api_key))).status, 200);
});

test('POST /api/keys by Company name or id → { ok, id, secret_key, note }; list shows metadata only', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'owner' });
  const co = await createCompany(t, u, 'Acme');
  const byName = await t.post('/api/keys', { root: 'acme', name: 'laptop' }, u.auth);
  assert.is(byName.status, 201);
  assert.is(byName.body.ok, true);
  assert.match(byName.body.id, /^key_/, 'an id must not look like the key itself');
  assert.is(keyProblem('secret', byName.body.secret_key), null);
  assert.match(byName.body.note, /shown only once/);
  assert.equal(byName.body.company, { id: co.id, name: 'Acme' });
  const byId = await t.post('/api/keys', { root: co.id, name: 'ci' }, u.auth);
  assert.is(byId.status, 201);
  const list = await t.get('/api/keys', u.auth);
  assert.is(list.status, 200);
  assert.equal(
    list.body.keys.map((k: any) => k.name),
    ['laptop', 'ci'],
  );
  const row = list.body.keys[0];
  assert.equal(Object.keys(row).sort(), [
    'company',
    'created_at',
    'created_by',
    'expires_at',
    'id',
    'last_used_at',
    'last_used_ip',
    'name',
    'prefix',
    'replaced_by',
    'retires_at',
    'scopes',
  ]);
  assert.is(row.created_by, u.user.id, 'a key records who made it');
  assert.equal(
    [row.scopes, row.expires_at, row.retires_at],
    [null, null, null],
    'no scopes asked: every scope, no expiry',
  );
  assert.is(row.prefix, byName.body.secret_key.slice(0, 9) + '…');
  assert.is(row.last_used_at, null);
  assert.not.ok(list.text.includes(byName.body.secret_key));
  assert.is(list.body.account_key, null);
  await rotateAccountKey(t, u);
  assert.match((await t.get('/api/keys', u.auth)).body.account_key.prefix, /^ak_.{6}…$/);
});

test("POST /api/keys: bad input 400, unknown root 404, another user's Company 403", async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'company' });
  const other = await createUser(t, { tier: 'company' });
  await createCompany(t, u, 'mine');
  const theirs = await createCompany(t, other, 'theirs');
  assert.is((await t.post('/api/keys', { name: 'x' }, u.auth)).status, 400);
  assert.is((await t.post('/api/keys', { root: 'mine' }, u.auth)).status, 400);
  assert.is((await t.post('/api/keys', { root: 'mine', name: '' }, u.auth)).status, 400);
  const unknown = await t.post('/api/keys', { root: 'nope', name: 'x' }, u.auth);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'company_not_found');
  const foreign = await t.post('/api/keys', { root: theirs.id, name: 'x' }, u.auth);
  assert.is(foreign.status, 403);
  assert.is(foreign.body.code, 'company_forbidden');
  assert.is((await t.post('/api/keys', { root: 'theirs', name: 'x' }, u.auth)).status, 404);
});

test('trial and starter accounts get 402 on creating keys; a bad JWT gets 401 first (case 17)', async () => {
  const t = await createTestApp();
  for (const tier of ['trial', 'starter'] as const) {
    const u = await createUser(t, { tier });
    const res = await t.post('/api/keys', { root: 'x', name: 'y' }, u.auth);
    assert.is(res.status, 402);
    assert.is(res.body.code, 'subscription_required');
    assert.match(res.body.error, /MCP access requires a Company subscription/);
    assert.is((await t.post('/api/account/api-key', undefined, u.auth)).status, 402);
    assert.is((await t.get('/api/keys', u.auth)).status, 200);
  }
  assert.is((await t.post('/api/keys', { root: 'x', name: 'y' }, { authorization: 'Bearer not.a.jwt' })).status, 401);
  assert.is((await t.post('/api/keys', { root: 'x', name: 'y' })).status, 401);
  const pending = await createUser(t, { tier: 'company', verified: false });
  assert.is((await t.post('/api/keys', { root: 'x', name: 'y' }, pending.auth)).status, 403);
});

test("DELETE /api/keys/:id revokes at once (case 14); another user's id → 404 with no effect", async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'company' });
  const mallory = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const { id, key } = await createSecretKey(t, u, co.id);
  const bearer = { authorization: `Bearer ${key}` };
  assert.is((await t.post('/api/mcp/validate', {}, bearer)).status, 200);
  const theft = await t.del(`/api/keys/${id}`, mallory.auth);
  assert.is(theft.status, 404);
  assert.is(theft.body.code, 'key_not_found');
  assert.is((await t.post('/api/mcp/validate', {}, bearer)).status, 200);
  const res = await t.del(`/api/keys/${id}`, u.auth);
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, id, revoked: true });
  const after = await t.post('/api/mcp/validate', {}, bearer);
  assert.is(after.status, 401);
  assert.is((await t.del(`/api/keys/${id}`, u.auth)).status, 404);
  assert.equal((await t.get('/api/keys', u.auth)).body.keys, []);
  assert.is((await t.del(`/api/keys/${id}`)).status, 401);
});

// Ids of keys made by older releases start with sk_/ak_ like the secrets themselves; they keep working.
test('a key made before ids changed (id sk_…) is listed and revoked by that id', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const { key } = await createSecretKey(t, u, co.name);
  const legacyId = 'sk_0000000000000legacy';
  const row = (await t.get('/api/keys', u.auth)).body.keys[0];
  // Re-file the same key under an old-style id, as a data folder from before the change holds it.
  const stored = (await t.deps.stores.keys.listSecretKeys(u.user.id))[0]!;
  await t.deps.stores.keys.revokeSecretKey(stored.id, u.user.id);
  await t.deps.stores.keys.addSecretKey({ ...stored, id: legacyId });
  assert.is((await t.get('/api/keys', u.auth)).body.keys[0].id, legacyId);
  assert.is((await t.post('/api/mcp/validate', {}, { authorization: `Bearer ${key}` })).status, 200);
  const del = await t.del(`/api/keys/${legacyId}`, u.auth);
  assert.is(del.status, 200, del.text);
  assert.is((await t.post('/api/mcp/validate', {}, { authorization: `Bearer ${key}` })).status, 401);
  assert.ok(row.id.startsWith('key_'));
});

test.run();
