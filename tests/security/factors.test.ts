import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Wallet } from 'ethers';
import { inviteCode, signInMessage } from '../helpers/siwe.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { PAST_THROTTLES, securityModes, successes, type Remote } from './remote.js';

/**
 * SECURITY.md attack cases 1 (SIWE nonce, WebAuthn challenge), 12 and 13 against a real daemon
 * process: SIWE messages signed by real ethers wallets, passkeys made by the software authenticator.
 */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack cases 1 (SIWE nonce, WebAuthn challenge), 12 and 13 (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  async function walletAccount() {
    const wallet = Wallet.createRandom();
    const res = await r.app.post('/api/auth/wallet/signup', {
      ...(await signInMessage(r.app, wallet)),
      invite_code: await inviteCode(r.app),
    });
    assert.is(res.status, 201, res.text);
    return wallet;
  }

  test('case 1: 20 parallel logins with one signed SIWE message (one nonce): exactly one succeeds', async () => {
    const wallet = await walletAccount();
    const signed = await signInMessage(r.app, wallet);
    assert.is(
      successes(await Promise.all(Array.from({ length: 20 }, () => r.app.post('/api/auth/wallet/login', signed)))),
      1,
    );
  });

  test('case 12: SIWE with a reused nonce, a foreign domain, an expired message or another signer is refused', async () => {
    const wallet = await walletAccount();
    const used = await signInMessage(r.app, wallet);
    assert.is((await r.app.post('/api/auth/wallet/login', used)).status, 200);
    assert.is((await r.app.post('/api/auth/wallet/login', used)).status, 401, 'reused nonce');
    const foreign = await signInMessage(
      r.app,
      wallet,
      (f) => void ((f.domain = 'evil.example.com'), (f.uri = 'https://evil.example.com')),
    );
    assert.is((await r.app.post('/api/auth/wallet/login', foreign)).status, 401, 'foreign domain');
    const expired = await signInMessage(
      r.app,
      wallet,
      (f) => void (f.expirationTime = new Date(r.app.clock.now() - 1000).toISOString()),
    );
    assert.is((await r.app.post('/api/auth/wallet/login', expired)).status, 401, 'expired');
    const other = Wallet.createRandom();
    const honest = await signInMessage(r.app, wallet);
    assert.is(
      (
        await r.app.post('/api/auth/wallet/login', {
          message: honest.message,
          signature: await other.signMessage(honest.message),
        })
      ).status,
      401,
      'another signer',
    );
  });

  async function passkeyUser(email: string) {
    const u = await r.signUpVerified(email);
    // The daemon's relying party is localhost on its own port (a browser never uses an IP as an RP ID).
    const auth = new SoftAuthenticator(`http://localhost:${new URL(r.daemon.url).port}`, 'localhost');
    const begin = await r.app.post('/api/auth/passkey/register-begin', { name: 'laptop' }, u.auth);
    assert.is(begin.status, 200, begin.text);
    const finish = await r.app.post(
      '/api/auth/passkey/register-finish',
      { response: auth.register(begin.body) },
      u.auth,
    );
    assert.is(finish.status, 201, finish.text);
    return auth;
  }

  test('case 1: 20 parallel passkey logins answering one challenge: exactly one succeeds', async () => {
    const auth = await passkeyUser('passkey-race@example.com');
    const begin = await r.app.post('/api/auth/passkey/login-begin', {});
    const response = auth.assert(begin.body);
    assert.is(
      successes(
        await Promise.all(Array.from({ length: 20 }, () => r.app.post('/api/auth/passkey/login-finish', { response }))),
      ),
      1,
    );
  });

  test('case 13: WebAuthn with a replayed challenge, a foreign origin or a counter that does not grow is refused', async () => {
    const auth = await passkeyUser('passkey@example.com');
    const begin = await r.app.post('/api/auth/passkey/login-begin', {});
    assert.is((await r.app.post('/api/auth/passkey/login-finish', { response: auth.assert(begin.body) })).status, 200);
    assert.is(
      (await r.app.post('/api/auth/passkey/login-finish', { response: auth.assert(begin.body) })).status,
      401,
      'replayed challenge',
    );
    const phish = await r.app.post('/api/auth/passkey/login-begin', {});
    assert.is(
      (
        await r.app.post('/api/auth/passkey/login-finish', {
          response: auth.assert(phish.body, { origin: 'https://evil.example.com' }),
        })
      ).status,
      401,
      'foreign origin',
    );
    const stale = await r.app.post('/api/auth/passkey/login-begin', {});
    assert.is(
      (await r.app.post('/api/auth/passkey/login-finish', { response: auth.assert(stale.body, { counter: 1 }) }))
        .status,
      401,
      'counter did not grow',
    );
  });

  test.run();
}
