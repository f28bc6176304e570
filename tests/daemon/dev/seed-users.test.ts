import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';

const ADA = { email: 'Ada@Example.com', password: 'correct horse battery', tier: 'starter' };

test('POST /api/dev/users is operator-only', async () => {
  const t = await createTestApp();
  try {
    const res = await t.post('/api/dev/users', ADA);
    assert.is(res.status, 401);
    assert.is(await t.deps.stores.users.findByEmail('ada@example.com'), undefined);
  } finally {
    await t.close();
  }
});

test('makes a verified user once; a second call finds it, changes nothing, and both answer a working token', async () => {
  const t = await createTestApp();
  try {
    const first = await t.post('/api/dev/users', ADA, t.operator);
    assert.is(first.status, 201);
    assert.equal(first.body.user.email, 'ada@example.com');
    assert.is(first.body.user.tier, 'starter');
    const before = await t.deps.stores.users.findByEmail('ada@example.com');
    const second = await t.post('/api/dev/users', ADA, t.operator);
    assert.is(second.status, 200);
    assert.is(second.body.created, false);
    assert.is(second.body.user.id, first.body.user.id);
    assert.equal(await t.deps.stores.users.findByEmail('ada@example.com'), before, 'nothing rewritten');
    const me = await t.get('/api/me', { authorization: `Bearer ${second.body.token}` });
    assert.is(me.status, 200);
    const login = await t.post('/api/auth/login', { email: 'ada@example.com', password: ADA.password });
    assert.is(login.status, 200, 'the password works for a normal login');
  } finally {
    await t.close();
  }
});

test('the seed token lives ten minutes on the clock', async () => {
  const t = await createTestApp();
  try {
    const { body } = await t.post('/api/dev/users', ADA, t.operator);
    t.clock.advance(10 * 60_000 + 1000);
    assert.is((await t.get('/api/me', { authorization: `Bearer ${body.token}` })).status, 401);
  } finally {
    await t.close();
  }
});

test('bad bodies are JSON 400s', async () => {
  const t = await createTestApp();
  try {
    for (const body of [
      {},
      { email: 'a@example.com' },
      { ...ADA, tier: 'gold' },
      { ...ADA, totp_secret: 'not base32!' },
      { ...ADA, password: 'short' },
    ]) {
      const res = await t.post('/api/dev/users', body, t.operator);
      assert.is(res.status, 400, JSON.stringify(body));
      assert.type(res.body.code, 'string');
    }
  } finally {
    await t.close();
  }
});

test.run();
