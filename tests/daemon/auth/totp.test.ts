import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { completeFirstFactor } from '../../../daemon/auth/login-outcome.js';
import { verifyToken } from '../../../daemon/auth/tokens.js';
import { matchTotpStep } from '../../../daemon/auth/totp/totp-codes.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { codeNow, enableTotp } from '../../helpers/totp.js';

const fakeCtx = { get: () => 'test-agent', ip: '127.0.0.1' };

async function partialFor(t: TestApp, user: Awaited<ReturnType<typeof createUser>>) {
  const outcome = await completeFirstFactor(t.deps, fakeCtx, (await t.deps.stores.users.findById(user.user.id))!, [
    'pwd',
  ]);
  assert.ok('totp_required' in outcome, 'TOTP account gets the partial step');
  return (outcome as { partial_token: string }).partial_token;
}

test('enrolment: begin shows a secret and otpauth URI, a first code activates it, recovery codes are shown once', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const begin = await t.post('/api/auth/totp/enroll', {}, u.auth);
  assert.is(begin.status, 200);
  assert.match(begin.body.otpauth_uri, /^otpauth:\/\/totp\/svc:.+\?secret=[A-Z2-7]{32}&issuer=svc$/);
  assert.is((await t.get('/api/auth/totp', u.auth)).body.enabled, false);
  const wrong = await t.post(
    '/api/auth/totp/enroll/confirm',
    { code: '000000' === codeNow(t, begin.body.secret) ? '111111' : '000000' },
    u.auth,
  );
  assert.is(wrong.status, 401);
  assert.is(wrong.body.code, 'totp_invalid_code');
  const ok = await t.post('/api/auth/totp/enroll/confirm', { code: codeNow(t, begin.body.secret) }, u.auth);
  assert.is(ok.status, 200);
  assert.is(ok.body.recovery_codes.length, 10);
  const state = await t.get('/api/auth/totp', u.auth);
  assert.equal([state.body.enabled, state.body.recovery_codes_left], [true, 10]);
  // The secret is sealed at rest and recovery codes are hashes.
  const stored = JSON.stringify(await t.deps.stores.users.findById(u.user.id));
  assert.not.ok(stored.includes(begin.body.secret));
  assert.not.ok(stored.includes(ok.body.recovery_codes[0]));
  assert.is((await t.post('/api/auth/totp/enroll', {}, u.auth)).status, 409);
});

test('password login on a TOTP account answers totp_required with a partial token and no session', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const sessionsBefore = (await t.deps.stores.sessions.listActive(u.user.id, new Date(t.clock.now()).toISOString()))
    .length;
  const partial = await partialFor(t, u);
  assert.is(verifyToken(t.deps.secrets.jwtSecret, partial, t.clock.now())!.typ, 'partial');
  assert.is(
    (await t.deps.stores.sessions.listActive(u.user.id, new Date(t.clock.now()).toISOString())).length,
    sessionsBefore,
  );
  // The partial token is refused where a session is needed.
  assert.is((await t.get('/api/auth/totp', { authorization: `Bearer ${partial}` })).status, 401);
  const res = await t.post('/api/auth/totp/login', { partial_token: partial, code: codeNow(t, secret) });
  assert.is(res.status, 200);
  const claims = verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!;
  assert.equal([claims.typ, claims.amr], ['session', ['pwd', 'otp']]);
  assert.is((await t.get('/api/auth/totp', { authorization: `Bearer ${res.body.token}` })).status, 200);
  // Single use.
  t.clock.advance(30_000);
  const again = await t.post('/api/auth/totp/login', { partial_token: partial, code: codeNow(t, secret) });
  assert.is(again.status, 401);
  assert.is(again.body.code, 'partial_token_invalid');
});

test('SECURITY 7: a code reused in its step through a new partial token is refused; ±1 step works, ±2 refused', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const code = codeNow(t, secret);
  assert.is((await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code })).status, 200);
  const replay = await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code });
  assert.is(replay.status, 401);
  assert.is(replay.body.code, 'totp_invalid_code');

  t.clock.advance(5 * 30_000);
  for (const steps of [-2, 2]) {
    const res = await t.post('/api/auth/totp/login', {
      partial_token: await partialFor(t, u),
      code: codeNow(t, secret, steps),
    });
    assert.is(res.status, 401, `±2 steps (${steps}) refused`);
  }
  assert.is(
    (await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code: codeNow(t, secret, -1) }))
      .status,
    200,
    '-1 step accepted',
  );
  // After step n-1 was used, step n+1 (a later one) is still fine.
  assert.is(
    (await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code: codeNow(t, secret, 1) }))
      .status,
    200,
    '+1 step accepted',
  );
  // …but now the current step is earlier than the last accepted one: refused.
  assert.is(
    (await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code: codeNow(t, secret) })).status,
    401,
  );
});

test('partial token: 5 tries, then refused even with the right code; expires after 5 minutes', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const partial = await partialFor(t, u);
  const wrong = codeNow(t, secret) === '123456' ? '654321' : '123456';
  for (let i = 0; i < 5; i++)
    assert.is(
      (await t.post('/api/auth/totp/login', { partial_token: partial, code: wrong })).body.code,
      'totp_invalid_code',
    );
  const sixth = await t.post('/api/auth/totp/login', { partial_token: partial, code: codeNow(t, secret) });
  assert.is(sixth.body.code, 'partial_token_invalid');

  const late = await partialFor(t, u);
  t.clock.advance(5 * 60_000 + 1000);
  assert.is((await t.post('/api/auth/totp/login', { partial_token: late, code: codeNow(t, secret) })).status, 401);
});

test('SECURITY 1: 20 parallel consumptions of one partial token with the right code → exactly one session', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const partial = await partialFor(t, u);
  const code = codeNow(t, secret);
  const results = await Promise.all(
    Array.from({ length: 20 }, () => t.post('/api/auth/totp/login', { partial_token: partial, code })),
  );
  assert.is(results.filter((r) => r.status === 200).length, 1);
});

test('recovery codes log in once each and record amr recovery_code', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { recoveryCodes } = await enableTotp(t, u);
  const res = await t.post('/api/auth/totp/login', {
    partial_token: await partialFor(t, u),
    code: recoveryCodes[0]!.toUpperCase(),
  });
  assert.is(res.status, 200);
  assert.equal(verifyToken(t.deps.secrets.jwtSecret, res.body.token, t.clock.now())!.amr, ['pwd', 'recovery_code']);
  assert.is(
    (await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code: recoveryCodes[0] })).status,
    401,
  );
  assert.is((await t.get('/api/auth/totp', u.auth)).body.recovery_codes_left, 9);
});

test('disable needs a current code or the password; afterwards login issues a session directly', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  assert.is((await t.post('/api/auth/totp/disable', {}, u.auth)).status, 400);
  assert.is((await t.post('/api/auth/totp/disable', { password: 'not the password!' }, u.auth)).status, 401);
  const off = await t.post('/api/auth/totp/disable', { code: codeNow(t, secret) }, u.auth);
  assert.is(off.status, 200);
  assert.is(off.body.enabled, false);
  const outcome = await completeFirstFactor(t.deps, fakeCtx, (await t.deps.stores.users.findById(u.user.id))!, ['pwd']);
  assert.ok('token' in outcome);
  // Enrol again, then disable with the password.
  await enableTotp(t, u);
  assert.is((await t.post('/api/auth/totp/disable', { password: u.password }, u.auth)).status, 200);
});

test('per-account ceiling: 10 wrong codes across partial tokens lock TOTP login for 15 minutes (429)', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const wrong = () => (codeNow(t, secret) === '123456' ? '654321' : '123456');
  for (let i = 0; i < 10; i++) {
    const partial = await partialFor(t, u);
    await t.post('/api/auth/totp/login', { partial_token: partial, code: wrong() });
  }
  const locked = await t.post('/api/auth/totp/login', {
    partial_token: await partialFor(t, u),
    code: codeNow(t, secret),
  });
  assert.is(locked.status, 429);
  assert.ok(Number(locked.headers['retry-after']) > 0);
  t.clock.advance(15 * 60_000 + 1000);
  assert.is(
    (await t.post('/api/auth/totp/login', { partial_token: await partialFor(t, u), code: codeNow(t, secret) })).status,
    200,
  );
});

test('POST /api/auth/login answers totp_required, then totp/login gives the JWT', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const res = await t.post('/api/auth/login', { email: u.user.email, password: u.password });
  assert.is(res.status, 200);
  assert.is(res.body.totp_required, true);
  assert.is(res.body.token, undefined);
  const done = await t.post('/api/auth/totp/login', {
    partial_token: res.body.partial_token,
    code: codeNow(t, secret),
  });
  assert.is(done.status, 200);
  assert.ok(done.body.token);
});

test('codes match the RFC 6238 SHA-1 test vectors (an independent check of the TOTP maths)', () => {
  // RFC 6238 appendix B: secret "12345678901234567890" (base32 below); the last 6 digits of the 8-digit values.
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  assert.is(matchTotpStep(secret, '287082', 59_000, null), 1);
  assert.is(matchTotpStep(secret, '081804', 1111111109_000, null), 37037036);
  assert.is(matchTotpStep(secret, '050471', 1111111111_000, null), 37037037);
  assert.is(matchTotpStep(secret, '050471', 1111111111_000, 37037037), null, 'not after the last accepted step');
});

test.run();
