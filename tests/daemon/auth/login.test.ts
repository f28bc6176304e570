import { test } from 'uvu';
import * as assert from 'uvu/assert';
import jwt from 'jsonwebtoken';
import { createTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { bearer, GOOD_PASSWORD, signUp } from '../../helpers/signup.js';
import { verifyToken } from '../../../daemon/auth/tokens.js';

test('password login and its alias /login/email return a full token recording the method', async () => {
  const t = await createTestApp();
  const { user, password } = await createUser(t, { email: 'log@example.com' });
  for (const path of ['/api/auth/login', '/api/auth/login/email']) {
    const res = await t.post(path, { email: 'LOG@example.com', password }, { 'user-agent': 'svc-test/1.0' });
    assert.is(res.status, 200);
    assert.equal(Object.keys(res.body).sort(), ['ok', 'token']);
    const claims = verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!;
    assert.is(claims.typ, 'session');
    assert.is(claims.user_id, user.id);
    assert.equal(claims.amr, ['pwd']);
    assert.ok(claims.iat && claims.exp - claims.iat === 24 * 3600);
    assert.is((await t.get('/api/me', bearer(res.body.token))).body.email, 'log@example.com');
  }
});

test('attack 6: wrong password and unknown e-mail get the same status and body', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'known@example.com' });
  const wrong = await t.post('/api/auth/login', { email: 'known@example.com', password: 'not the password at all' });
  const unknown = await t.post('/api/auth/login', { email: 'nobody@example.com', password: 'not the password at all' });
  assert.is(wrong.status, 401);
  assert.is(unknown.status, wrong.status);
  const strip = (b: any) => ({ ...b, request_id: undefined });
  assert.equal(strip(unknown.body), strip(wrong.body));
  assert.is(wrong.body.code, 'invalid_credentials');
});

test('the per-account ceiling: 10 failures lock the account 15 min (429), unknown e-mails alike', async () => {
  const t = await createTestApp({ config: { auth: { loginPerAddress: [{ limit: 1000, windowMs: 60_000 }] } } });
  const { password } = await createUser(t, { email: 'lock@example.com' });
  for (const email of ['lock@example.com', 'ghost@example.com']) {
    for (let i = 0; i < 10; i++)
      assert.is((await t.post('/api/auth/login', { email, password: 'wrong password here' })).status, 401);
    const locked = await t.post('/api/auth/login', { email, password });
    assert.is(locked.status, 429);
    assert.is(locked.body.code, 'account_locked');
    assert.ok(Number(locked.headers['retry-after']) > 0);
  }
  t.clock.advance(15 * 60_000 + 1000);
  assert.is((await t.post('/api/auth/login', { email: 'lock@example.com', password })).status, 200);
});

test('the ceiling holds for a parallel burst: of 40 concurrent wrong guesses at most 10 are checked', async () => {
  const t = await createTestApp({ config: { auth: { loginPerAddress: [{ limit: 1000, windowMs: 60_000 }] } } });
  const { password } = await createUser(t, { email: 'burst@example.com' });
  const answers = await Promise.all(
    Array.from({ length: 40 }, () =>
      t.post('/api/auth/login', { email: 'burst@example.com', password: 'wrong password here' }),
    ),
  );
  assert.is(answers.filter((a) => a.status === 401).length, 10);
  assert.is(answers.filter((a) => a.status === 429).length, 30);
  // Locked now: even the right password waits out the lock-out.
  assert.is((await t.post('/api/auth/login', { email: 'burst@example.com', password })).status, 429);
});

test('a right password after 9 failures logs in and clears the count', async () => {
  const t = await createTestApp({ config: { auth: { loginPerAddress: [{ limit: 1000, windowMs: 60_000 }] } } });
  const { password } = await createUser(t, { email: 'nine@example.com' });
  for (let i = 0; i < 9; i++)
    await t.post('/api/auth/login', { email: 'nine@example.com', password: 'wrong password here' });
  assert.is((await t.post('/api/auth/login', { email: 'nine@example.com', password })).status, 200);
  for (let i = 0; i < 9; i++)
    assert.is(
      (await t.post('/api/auth/login', { email: 'nine@example.com', password: 'wrong password here' })).status,
      401,
    );
});

test('password login is throttled per client address: 30 per 5 min', async () => {
  const t = await createTestApp();
  const { password } = await createUser(t, { email: 'many@example.com' });
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++)
    statuses.push(
      (await t.post('/api/auth/login', { email: `x${i}@example.com`, password: 'wrong password here' })).status,
    );
  assert.is(statuses.filter((s) => s === 401).length, 30);
  assert.is(statuses[30], 429);
  assert.is((await t.post('/api/auth/login', { email: 'many@example.com', password })).status, 429);
  t.clock.advance(5 * 60_000 + 1);
  assert.is((await t.post('/api/auth/login', { email: 'many@example.com', password })).status, 200);
});

test('an account that never verified logs in to an unverified session only', async () => {
  const t = await createTestApp();
  await signUp(t, 'unv@example.com');
  const res = await t.post('/api/auth/login', { email: 'unv@example.com', password: GOOD_PASSWORD });
  assert.is(res.status, 200);
  assert.is(res.body.pending_verification, true);
  assert.is(verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!.typ, 'unverified');
  assert.is((await t.get('/api/auth/sessions', bearer(res.body.token))).status, 403);
});

test('attack 5: an unverified token reaches only verify, resend-code and GET /api/me', async () => {
  const t = await createTestApp();
  const { token } = await signUp(t, 'pend@example.com');
  const auth = bearer(token);
  const refused = [
    await t.get('/api/auth/sessions', auth),
    await t.post('/api/auth/sessions/revoke-others', {}, auth),
    await t.post('/api/auth/update-profile', { display_name: 'X' }, auth),
    await t.post('/api/auth/update-avatar', { avatar: null }, auth),
    await t.post('/api/auth/welcome/profile-name', { name: 'X' }, auth),
    await t.post(
      '/api/auth/change-password',
      { current_password: GOOD_PASSWORD, new_password: 'another long password' },
      auth,
    ),
    await t.post('/api/me/email/change/begin', { new_email: 'z@example.com', password: GOOD_PASSWORD }, auth),
  ];
  for (const r of refused) {
    assert.is(r.status, 403);
    assert.is(r.body.code, 'verification_pending');
  }
  assert.is((await t.get('/api/me', auth)).status, 200);
  t.clock.advance(60_000);
  assert.is((await t.post('/api/auth/resend-code', {}, auth)).status, 200);
});

test('attack 8: forged, expired, alg none, edited and partial tokens → 401', async () => {
  const t = await createTestApp();
  const { token, user } = await createUser(t, { email: 'forge@example.com' });
  const [h, p] = token.split('.');
  const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
  const other = jwt.sign(payload, 'another secret entirely', { algorithm: 'HS256' });
  const { exp: _exp, ...withoutExp } = payload;
  const noExp = jwt.sign(withoutExp, t.deps.secrets.jwtSecret, { algorithm: 'HS256' });
  const edited = `${h}.${Buffer.from(JSON.stringify({ ...payload, user_id: 'usr_other' })).toString('base64url')}.${token.split('.')[2]}`;
  const partial = jwt.sign({ ...payload, typ: 'partial' }, t.deps.secrets.jwtSecret, { algorithm: 'HS256' });
  for (const bad of [none, other, noExp, edited, partial, 'garbage', `sk_${'a'.repeat(40)}`]) {
    assert.is((await t.get('/api/me', bearer(bad))).status, 401, bad);
    assert.is((await t.get('/api/auth/sessions', bearer(bad))).status, 401, bad);
  }
  assert.is((await t.get('/api/me', {})).status, 401);
  t.clock.advance(24 * 3600_000 + 1000);
  assert.is((await t.get('/api/me', bearer(token))).status, 401, 'expired');
  assert.ok(user.id);
});

test('login validates its body: missing fields → 400 naming the field, not JSON → 415', async () => {
  const t = await createTestApp();
  const res = await t.post('/api/auth/login', { email: 'a@example.com' });
  assert.is(res.status, 400);
  assert.match(res.body.error, 'password');
  const raw = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'text/plain' },
    payload: 'email=a',
  });
  assert.is(raw.status, 415);
  const big = await t.post('/api/auth/login', { email: 'a@example.com', password: 'x'.repeat(70_000) });
  assert.is(big.status, 413);
});

test('the throttles are one set per app, shared by every route that asks for them', async () => {
  const t = await createTestApp();
  // Lock the account through the set createApp was given: the login route sees it.
  const { password } = await createUser(t, { email: 'shared@example.com' });
  for (let i = 0; i < 10; i++) t.authLimits.failures.fail('pwd:shared@example.com');
  assert.is((await t.post('/api/auth/login', { email: 'shared@example.com', password })).body.code, 'account_locked');
});

test.run();
