import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';

test('operator routes refuse a missing or wrong token with 401', async () => {
  const t = await createTestApp();
  for (const headers of <Record<string, string>[]>[
    {},
    { authorization: 'Bearer op_wrong' },
    { authorization: t.operator.authorization!.replace('Bearer ', 'Basic ') },
  ]) {
    const res = await t.get('/api/dev/mail', headers);
    assert.is(res.status, 401);
    assert.is(res.body.code, 'operator_token_required');
    assert.is((await t.post('/api/dev/invites', {}, headers)).status, 401);
    assert.is((await t.post('/api/dev/tier', { email: 'a@example.com', tier: 'company' }, headers)).status, 401);
  }
});

test('operator routes refuse a missing token on any spelling of their path the routes answer (case, trailing slash)', async () => {
  const t = await createTestApp();
  for (const path of ['/API/DEV/MAIL', '/Api/Dev/Mail', '/api/DEV/mail/']) {
    const res = await t.get(path);
    assert.is(res.status, 401, path);
    assert.is(res.body.code, 'operator_token_required', path);
    assert.is((await t.get(path, t.operator)).status, 200, path);
  }
  assert.is((await t.post('/API/DEV/INVITES', {})).status, 401);
});

test('GET /api/dev/mail lists captured mail oldest first with code and link, filtered by to and since_id', async () => {
  const t = await createTestApp();
  const first = await t.deps.mailer.send({
    to: 'a@example.com',
    subject: 'Your code',
    text: 'Your code is 123456',
    code: '123456',
  });
  await t.deps.mailer.send({
    to: 'b@example.com',
    subject: 'Sign in',
    text: 'Click',
    link: 'http://127.0.0.1:7878/magic?token=t',
  });
  await t.deps.mailer.send({ to: 'a@example.com', subject: 'Second', text: 'again' });
  const all = await t.get('/api/dev/mail', t.operator);
  assert.is(all.status, 200);
  assert.equal(
    all.body.mail.map((m: any) => m.subject),
    ['Your code', 'Sign in', 'Second'],
  );
  assert.equal(Object.keys(all.body.mail[0]).sort(), ['code', 'created_at', 'id', 'link', 'subject', 'text', 'to']);
  assert.is(all.body.mail[0].code, '123456');
  assert.is(all.body.mail[0].link, null);
  assert.is(all.body.mail[1].link, 'http://127.0.0.1:7878/magic?token=t');
  const toA = await t.get('/api/dev/mail?to=a@example.com', t.operator);
  assert.equal(
    toA.body.mail.map((m: any) => m.subject),
    ['Your code', 'Second'],
  );
  const since = await t.get(`/api/dev/mail?to=a@example.com&since_id=${first.id}`, t.operator);
  assert.equal(
    since.body.mail.map((m: any) => m.subject),
    ['Second'],
  );
});

test('POST /api/dev/invites returns a fresh single-use code, stored only as a hash', async () => {
  const t = await createTestApp();
  const a = await t.post('/api/dev/invites', {}, t.operator);
  const b = await t.post('/api/dev/invites', {}, t.operator);
  assert.is(a.status, 201);
  assert.match(a.body.code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  assert.is.not(a.body.code, b.body.code);
  const stored = JSON.stringify(t.deps.stores.invites);
  assert.not.match(stored, a.body.code);
});

test("POST /api/dev/tier sets a known user's tier and validates its input", async () => {
  const t = await createTestApp();
  await t.deps.stores.users.create({ id: 'u1', email: 'a@example.com', tier: 'trial', created_at: 'x' });
  const ok = await t.post('/api/dev/tier', { email: 'A@example.com', tier: 'company' }, t.operator);
  assert.is(ok.status, 200);
  assert.is(ok.body.user.tier, 'company');
  assert.is((await t.deps.stores.users.findById('u1'))?.tier, 'company');
  const unknown = await t.post('/api/dev/tier', { email: 'nobody@example.com', tier: 'company' }, t.operator);
  assert.is(unknown.status, 404);
  const bad = await t.post('/api/dev/tier', { email: 'a@example.com', tier: 'gold' }, t.operator);
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'validation_failed');
  assert.match(bad.body.error, 'tier');
  assert.is((await t.post('/api/dev/tier', { tier: 'company' }, t.operator)).status, 400);
});

test.run();
