import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Wallet } from 'ethers';
import { verifyToken } from '../../../daemon/auth/tokens.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { inviteCode, signInMessage } from '../../helpers/siwe.js';

async function signUp(t: TestApp, wallet: { address: string; signMessage(m: string): Promise<string> }) {
  const signed = await signInMessage(t, wallet);
  return t.post('/api/auth/wallet/signup', { ...signed, invite_code: await inviteCode(t) });
}

test('signup with an invite, then login: a wallet account has email null in its JWT', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  const up = await signUp(t, wallet);
  assert.is(up.status, 201);
  assert.equal(up.body.user.wallet_address, wallet.address.toLowerCase());
  const claims = verifyToken(t.deps.secrets.jwtSecret, up.body.token, t.clock.now())!;
  assert.equal([claims.email, claims.typ, claims.amr], [null, 'session', ['wallet']]);
  const login = await t.post('/api/auth/wallet/login', await signInMessage(t, wallet));
  assert.is(login.status, 200);
  assert.is(verifyToken(t.deps.secrets.jwtSecret, login.body.token, t.clock.now())!.user_id, claims.user_id);
  // A second signup for the same wallet is refused.
  assert.is((await signUp(t, wallet)).status, 409);
  // GET /api/me shows the address, no e-mail, and nothing pending: there is no e-mail to verify.
  const me = await t.get('/api/me', { authorization: `Bearer ${login.body.token}` });
  assert.is(me.status, 200);
  assert.equal(
    [me.body.email, me.body.wallet_address, me.body.pending_verification, me.body.totp_enabled],
    [null, wallet.address.toLowerCase(), false, false],
  );
});

test('signup needs a valid, unused invite; login needs an account', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  const bad = await t.post('/api/auth/wallet/signup', {
    ...(await signInMessage(t, wallet)),
    invite_code: 'AAAA-BBBB-CCCC-DDDD',
  });
  assert.equal([bad.status, bad.body.code], [400, 'invite_invalid']);
  const nobody = await t.post('/api/auth/wallet/login', await signInMessage(t, Wallet.createRandom()));
  assert.equal([nobody.status, nobody.body.code], [401, 'wallet_not_registered']);
});

test('SECURITY 12: a reused nonce, a foreign domain, a foreign URI, an expired or old message, another chain, another signer → refused', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  assert.is((await signUp(t, wallet)).status, 201);
  const refuse = async (label: string, body: object, code = 'siwe_message_invalid') => {
    const res = await t.post('/api/auth/wallet/login', body);
    assert.is(res.status, 401, label);
    assert.is(res.body.code, code, label);
  };
  const used = await signInMessage(t, wallet);
  assert.is((await t.post('/api/auth/wallet/login', used)).status, 200);
  await refuse('reused nonce', used, 'siwe_nonce_invalid');
  await refuse('foreign domain', await signInMessage(t, wallet, (m) => (m.domain = 'evil.example.com')));
  await refuse('foreign uri', await signInMessage(t, wallet, (m) => (m.uri = 'https://evil.example.com/login')));
  await refuse(
    'expired',
    await signInMessage(t, wallet, (m) => (m.expirationTime = new Date(t.clock.now() - 1000).toISOString())),
  );
  await refuse(
    'not yet valid',
    await signInMessage(t, wallet, (m) => (m.notBefore = new Date(t.clock.now() + 60_000).toISOString())),
  );
  await refuse(
    'issued 11 minutes ago',
    await signInMessage(t, wallet, (m) => (m.issuedAt = new Date(t.clock.now() - 11 * 60_000).toISOString())),
  );
  await refuse('chain not allowed', await signInMessage(t, wallet, (m) => (m.chainId = 5)));
  // Another signer: a message naming our address, signed by a different key.
  const other = Wallet.createRandom();
  const signed = await signInMessage(t, wallet);
  await refuse('another signer', { message: signed.message, signature: await other.signMessage(signed.message) });
  // A nonce issued for another address does not work for this one.
  const foreign = await t.post('/api/auth/wallet/nonce', { address: other.address });
  await refuse(
    'nonce of another address',
    await signInMessage(t, wallet, (m) => (m.nonce = foreign.body.nonce)),
    'siwe_nonce_invalid',
  );
  // An edited message no longer matches its signature.
  const edited = await signInMessage(t, wallet);
  await refuse('edited after signing', {
    message: edited.message.replace('Sign in to svc.', 'Sign in to svc!'),
    signature: edited.signature,
  });
});

test('a nonce expires after 10 minutes', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  assert.is((await signUp(t, wallet)).status, 201);
  const signed = await signInMessage(t, wallet);
  t.clock.advance(10 * 60_000 + 1000);
  const res = await t.post('/api/auth/wallet/login', signed);
  assert.equal([res.status, res.body.code], [401, 'siwe_nonce_invalid']);
});

test('SECURITY 1: 20 parallel logins with one signed nonce → exactly one session', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  assert.is((await signUp(t, wallet)).status, 201);
  const signed = await signInMessage(t, wallet);
  const results = await Promise.all(Array.from({ length: 20 }, () => t.post('/api/auth/wallet/login', signed)));
  assert.is(results.filter((r) => r.status === 200).length, 1);
});

test('bad input → 400: a non-address, a non-SIWE message, a malformed signature', async () => {
  const t = await createTestApp();
  assert.is((await t.post('/api/auth/wallet/nonce', { address: '0x1234' })).status, 400);
  const junk = await t.post('/api/auth/wallet/login', { message: 'hello', signature: '0x' + 'ab'.repeat(65) });
  assert.equal([junk.status, junk.body.code], [400, 'siwe_message_invalid']);
  assert.is((await t.post('/api/auth/wallet/login', { message: 'hello', signature: 'nope' })).status, 400);
});

test.run();
