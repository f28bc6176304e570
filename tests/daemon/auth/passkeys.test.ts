import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyToken } from '../../../daemon/auth/tokens.js';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

async function registerPasskey(t: TestApp, u: TestUser, auth = new SoftAuthenticator()) {
  const begin = await t.post('/api/auth/passkey/register-begin', { name: 'laptop' }, u.auth);
  assert.is(begin.status, 200);
  const finish = await t.post('/api/auth/passkey/register-finish', { response: auth.register(begin.body) }, u.auth);
  assert.is(finish.status, 201, finish.text);
  return { auth, passkey: finish.body.passkey };
}

test('register a passkey, log in with it (amr passkey), list it, delete it', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { auth, passkey } = await registerPasskey(t, u);
  assert.is(passkey.name, 'laptop');
  const begin = await t.post('/api/auth/passkey/login-begin', {});
  assert.is(Buffer.from(begin.body.challenge, 'base64url').length, 32);
  const login = await t.post('/api/auth/passkey/login-finish', { response: auth.assert(begin.body) });
  assert.is(login.status, 200, login.text);
  const claims = verifyToken(t.deps.secrets.jwtSecret, login.body.token, t.clock.now())!;
  assert.equal([claims.user_id, claims.amr], [u.user.id, ['passkey']]);
  const list = await t.get('/api/auth/passkeys', u.auth);
  assert.equal(
    list.body.passkeys.map((p: any) => p.id),
    [passkey.id],
  );
  assert.ok(list.body.passkeys[0].last_used_at);
  const other = await createUser(t);
  assert.is((await t.del(`/api/auth/passkeys/${passkey.id}`, other.auth)).status, 404, "another user's passkey");
  assert.is((await t.del(`/api/auth/passkeys/${passkey.id}`, u.auth)).status, 200);
  assert.equal((await t.get('/api/auth/passkeys', u.auth)).body.passkeys, []);
  const after = await t.post('/api/auth/passkey/login-begin', {});
  assert.is((await t.post('/api/auth/passkey/login-finish', { response: auth.assert(after.body) })).status, 401);
});

test('SECURITY 13: a replayed challenge, a foreign origin, a foreign RP ID, a non-growing counter → refused', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { auth } = await registerPasskey(t, u);
  const begin = await t.post('/api/auth/passkey/login-begin', {});
  const first = auth.assert(begin.body);
  assert.is((await t.post('/api/auth/passkey/login-finish', { response: first })).status, 200);
  const replay = await t.post('/api/auth/passkey/login-finish', { response: auth.assert(begin.body) });
  assert.equal([replay.status, replay.body.code], [401, 'passkey_challenge_invalid']);

  const phish = await t.post('/api/auth/passkey/login-begin', {});
  const foreign = await t.post('/api/auth/passkey/login-finish', {
    response: auth.assert(phish.body, { origin: 'https://evil.example.com' }),
  });
  assert.equal([foreign.status, foreign.body.code], [401, 'passkey_verification_failed']);
  const rp = await t.post('/api/auth/passkey/login-begin', {});
  assert.is(
    (await t.post('/api/auth/passkey/login-finish', { response: auth.assert(rp.body, { rpId: 'evil.example.com' }) }))
      .status,
    401,
  );

  const stale = await t.post('/api/auth/passkey/login-begin', {});
  const cloned = await t.post('/api/auth/passkey/login-finish', { response: auth.assert(stale.body, { counter: 1 }) });
  assert.equal([cloned.status, cloned.body.code], [401, 'passkey_verification_failed']);
});

test('challenges are bound to the ceremony and the user, and expire after 5 minutes', async () => {
  const t = await createTestApp();
  const a = await createUser(t);
  const b = await createUser(t);
  const auth = new SoftAuthenticator();
  // A's registration challenge cannot register a key on B's account.
  const beginA = await t.post('/api/auth/passkey/register-begin', {}, a.auth);
  const res = await t.post('/api/auth/passkey/register-finish', { response: auth.register(beginA.body) }, b.auth);
  assert.equal([res.status, res.body.code], [401, 'passkey_challenge_invalid']);
  // A login challenge cannot finish a registration.
  const loginBegin = await t.post('/api/auth/passkey/login-begin', {});
  const cross = await t.post(
    '/api/auth/passkey/register-finish',
    { response: auth.register({ challenge: loginBegin.body.challenge, user: { id: 'x' } }) },
    a.auth,
  );
  assert.is(cross.status, 401);
  const late = await t.post('/api/auth/passkey/register-begin', {}, a.auth);
  t.clock.advance(5 * 60_000 + 1000);
  assert.is(
    (await t.post('/api/auth/passkey/register-finish', { response: auth.register(late.body) }, a.auth)).status,
    401,
  );
});

test('a credential id registers once; registration needs a full session', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { auth } = await registerPasskey(t, u);
  const again = await t.post('/api/auth/passkey/register-begin', {}, u.auth);
  const response = auth.register(again.body);
  // A second key registers; then the same credential (same attestation) sent again under a fresh challenge is refused.
  assert.is((await t.post('/api/auth/passkey/register-finish', { response }, u.auth)).status, 201);
  const third = await t.post('/api/auth/passkey/register-begin', {}, u.auth);
  const replayed = {
    ...response,
    response: {
      ...response.response,
      clientDataJSON: Buffer.from(
        JSON.stringify({
          type: 'webauthn.create',
          challenge: third.body.challenge,
          origin: 'http://localhost:7878',
          crossOrigin: false,
        }),
      ).toString('base64url'),
    },
  };
  const dup = await t.post('/api/auth/passkey/register-finish', { response: replayed }, u.auth);
  assert.equal([dup.status, dup.body.code], [409, 'passkey_already_registered']);
  assert.is((await t.post('/api/auth/passkey/register-begin', {})).status, 401);
});

test('SECURITY 1: 20 parallel finishes with one challenge → exactly one session', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { auth } = await registerPasskey(t, u);
  const begin = await t.post('/api/auth/passkey/login-begin', {});
  const responses = Array.from({ length: 20 }, () => auth.assert(begin.body));
  const results = await Promise.all(
    responses.map((response) => t.post('/api/auth/passkey/login-finish', { response })),
  );
  assert.is(results.filter((r) => r.status === 200).length, 1);
});

test('malformed responses get a 400, never a 500', async () => {
  const t = await createTestApp();
  assert.is((await t.post('/api/auth/passkey/login-finish', {})).status, 400);
  assert.is(
    (
      await t.post('/api/auth/passkey/login-finish', {
        response: {
          id: 'a',
          rawId: 'a',
          type: 'public-key',
          response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
        },
      })
    ).status,
    401,
  );
});

test.run();
