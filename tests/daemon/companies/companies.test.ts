import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { companyDataDir } from '../../../daemon/company/seam.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';

test("POST /api/companies creates a Company (201) with its 0700 data folder; GET lists only the caller's", async () => {
  const t = await createTestApp();
  const alice = await createUser(t);
  const bob = await createUser(t);
  const res = await t.post('/api/companies', { name: 'Acme Labs' }, alice.auth);
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  assert.is(res.body.name, 'Acme Labs');
  assert.match(res.body.id, /^cmp_/);
  assert.is(statSync(companyDataDir(t.deps.config.dataDir, res.body.id)).mode & 0o777, 0o700);
  await t.post('/api/companies', { name: 'Bob Co' }, bob.auth);
  const list = await t.get('/api/companies', alice.auth);
  assert.is(list.status, 200);
  assert.equal(
    list.body.companies.map((c: any) => c.name),
    ['Acme Labs'],
  );
  assert.equal(Object.keys(list.body.companies[0]).sort(), ['created_at', 'id', 'name', 'owner_id', 'role']);
  assert.equal([list.body.companies[0].role, list.body.companies[0].owner_id], ['owner', alice.user.id]);
});

test('names are unique per user (case-insensitive, 409) but two users may share one', async () => {
  const t = await createTestApp();
  const alice = await createUser(t);
  const bob = await createUser(t);
  assert.is((await t.post('/api/companies', { name: 'acme' }, alice.auth)).status, 201);
  const dup = await t.post('/api/companies', { name: 'ACME' }, alice.auth);
  assert.is(dup.status, 409);
  assert.is(dup.body.code, 'company_name_taken');
  assert.is((await t.post('/api/companies', { name: 'acme' }, bob.auth)).status, 201);
  const racing = await Promise.all([1, 2, 3].map(() => t.post('/api/companies', { name: 'race' }, alice.auth)));
  assert.equal(racing.map((r) => r.status).sort(), [201, 409, 409]);
  // Only Companies that exist have a data folder: the losers of the race left none behind.
  assert.is(readdirSync(join(t.deps.config.dataDir, 'companies')).length, 3);
});

test('bad names get a clear 400; no or bad session → 401; unverified → 403', async () => {
  const t = await createTestApp();
  const alice = await createUser(t);
  for (const body of [
    {},
    { name: '' },
    { name: '   ' },
    { name: 'x'.repeat(65) },
    { name: '-dash' },
    { name: 'cmp_123' },
    { name: 42 },
    { name: 'a/b' },
  ]) {
    const res = await t.post('/api/companies', body, alice.auth);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.code, 'validation_failed');
    assert.match(res.body.error, /^name: /);
  }
  assert.is((await t.post('/api/companies', { name: 'x' })).status, 401);
  assert.is((await t.get('/api/companies', { authorization: 'Bearer nope' })).status, 401);
  const pending = await createUser(t, { verified: false });
  assert.is((await t.post('/api/companies', { name: 'x' }, pending.auth)).status, 403);
});

test('GET /api/billing/plan reports the tier and whether keys are allowed', async () => {
  const t = await createTestApp();
  const trial = await createUser(t);
  const paid = await createUser(t, { tier: 'company' });
  assert.equal((await t.get('/api/billing/plan', trial.auth)).body, {
    tier: 'trial',
    api_keys: false,
    mcp: false,
    dashboard: true,
  });
  assert.equal((await t.get('/api/billing/plan', paid.auth)).body, {
    tier: 'company',
    api_keys: true,
    mcp: true,
    dashboard: true,
  });
  assert.is((await t.get('/api/billing/plan')).status, 401);
  assert.is((await t.get('/api/billing/nope', paid.auth)).status, 404);
});

test.run();
