import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { settledMail, waitForMail } from '../../helpers/mail.js';
import { bearer } from '../../helpers/signup.js';

test('e-mail change: code to the new address, notice to the old, then the old address no longer logs in', async () => {
  const t = await createTestApp();
  const { auth, password, user } = await createUser(t, { email: 'old@example.com' });
  const begin = await t.post('/api/me/email/change/begin', { new_email: 'New@Example.com', password }, auth);
  assert.is(begin.status, 200);
  assert.is(begin.body.pending_email, 'new@example.com');
  assert.is((await t.get('/api/me', auth)).body.pending_email, 'new@example.com');
  const code = (await waitForMail(t, 'new@example.com')).code!;
  assert.match(code, /^\d{6}$/);
  await waitForMail(t, 'old@example.com', (m) => m.subject.includes('requested'));

  const finish = await t.post('/api/me/email/change/finish', { code }, auth);
  assert.is(finish.status, 200);
  assert.is(finish.body.email, 'new@example.com');
  assert.is((await t.get('/api/me', auth)).status, 401, 'the old token names the old address: it ended');
  const me = await t.get('/api/me', bearer(finish.body.token));
  assert.equal([me.body.id, me.body.email, me.body.pending_email], [user.id, 'new@example.com', null]);
  assert.is((await t.post('/api/auth/login', { email: 'old@example.com', password })).status, 401);
  assert.is((await t.post('/api/auth/login', { email: 'new@example.com', password })).status, 200);
  await waitForMail(t, 'old@example.com', (m) => m.subject.includes('was changed'));
});

test('attack 11: changing to an address in use is no takeover, and the answer does not tell', async () => {
  const t = await createTestApp();
  const victim = await createUser(t, { email: 'victim@example.com' });
  const attacker = await createUser(t, { email: 'attacker@example.com' });
  const begin = await t.post(
    '/api/me/email/change/begin',
    { new_email: 'victim@example.com', password: attacker.password },
    attacker.auth,
  );
  assert.is(begin.status, 200);
  const mail = await settledMail(t, 'victim@example.com');
  assert.ok(
    mail.every((m) => m.code === null),
    'no code goes to an address that has an account',
  );
  for (const code of ['000000', '123456'])
    assert.is((await t.post('/api/me/email/change/finish', { code }, attacker.auth)).status, 400);
  assert.is((await t.deps.stores.users.findByEmail('victim@example.com'))?.id, victim.user.id);
  assert.is((await t.post('/api/auth/login', { email: 'victim@example.com', password: victim.password })).status, 200);
});

test('attack 11: an address taken between begin and finish → 409, nothing changes', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { email: 'mover@example.com' });
  await t.post('/api/me/email/change/begin', { new_email: 'race@example.com', password: u.password }, u.auth);
  const code = (await waitForMail(t, 'race@example.com')).code!;
  await createUser(t, { email: 'race@example.com' });
  const finish = await t.post('/api/me/email/change/finish', { code }, u.auth);
  assert.is(finish.status, 409);
  assert.is(finish.body.code, 'email_taken');
  assert.is((await t.deps.stores.users.findById(u.user.id))?.email, 'mover@example.com');
});

test('e-mail change needs the password, a different address, and a begun change', async () => {
  const t = await createTestApp();
  const u = await createUser(t, { email: 'pw@example.com' });
  const wrong = await t.post(
    '/api/me/email/change/begin',
    { new_email: 'x@example.com', password: 'not my password at all' },
    u.auth,
  );
  assert.is(wrong.body.code, 'invalid_credentials');
  const same = await t.post(
    '/api/me/email/change/begin',
    { new_email: 'PW@example.com', password: u.password },
    u.auth,
  );
  assert.is(same.body.code, 'same_email');
  const none = await t.post('/api/me/email/change/finish', { code: '123456' }, u.auth);
  assert.is(none.body.code, 'no_email_change');
});

test("a code for another user's e-mail change does not finish mine", async () => {
  const t = await createTestApp();
  const a = await createUser(t, { email: 'a1@example.com' });
  const b = await createUser(t, { email: 'b1@example.com' });
  await t.post('/api/me/email/change/begin', { new_email: 'a-new@example.com', password: a.password }, a.auth);
  await t.post('/api/me/email/change/begin', { new_email: 'b-new@example.com', password: b.password }, b.auth);
  const aCode = (await waitForMail(t, 'a-new@example.com')).code!;
  const bCode = (await waitForMail(t, 'b-new@example.com')).code!;
  if (aCode !== bCode) assert.is((await t.post('/api/me/email/change/finish', { code: aCode }, b.auth)).status, 400);
  assert.is((await t.post('/api/me/email/change/finish', { code: aCode }, a.auth)).status, 200);
});

test.run();
