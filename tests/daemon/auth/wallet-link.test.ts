import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Wallet } from 'ethers';
import { createUser } from '../../helpers/accounts.js';
import { signInMessage } from '../../helpers/siwe.js';
import { createTestApp } from '../../helpers/test-app.js';

test('a signed-in account links a wallet (recent login), then logs in with it; a taken wallet or a second one is 409', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const wallet = Wallet.createRandom();
  const link = await t.post('/api/auth/wallet/link', await signInMessage(t, wallet), u.auth);
  assert.equal([link.status, link.body.wallet_address], [200, wallet.address.toLowerCase()], link.text);
  assert.is((await t.get('/api/me', u.auth)).body.wallet_address, wallet.address.toLowerCase());
  const login = await t.post('/api/auth/wallet/login', await signInMessage(t, wallet));
  assert.is(login.status, 200);
  assert.is(
    (await t.post('/api/auth/wallet/link', await signInMessage(t, Wallet.createRandom()), u.auth)).body.code,
    'wallet_taken',
  );
  const other = await createUser(t);
  assert.is(
    (await t.post('/api/auth/wallet/link', await signInMessage(t, wallet), other.auth)).body.code,
    'wallet_taken',
  );
});

test('linking needs a login from the last 10 minutes: a stolen old session cannot plant a wallet', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  t.clock.advance(11 * 60_000);
  const res = await t.post('/api/auth/wallet/link', await signInMessage(t, Wallet.createRandom()), u.auth);
  assert.equal([res.status, res.body.code], [403, 'recent_login_required']);
});

test('SIWE: the console opened at localhost:<port> signs for that domain, and the daemon accepts it; a foreign domain is refused', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  const nonce = await t.post(
    '/api/auth/wallet/nonce',
    { address: wallet.address },
    { origin: 'http://localhost:7878' },
  );
  assert.equal([nonce.body.domain, nonce.body.uri], ['localhost:7878', 'http://localhost:7878']);
  const up = await t.post('/api/auth/wallet/signup', {
    ...(await signInMessage(t, wallet, (f) => ((f.domain = 'localhost:7878'), (f.uri = 'http://localhost:7878')))),
    invite_code: (await t.post('/api/dev/invites', {}, t.operator)).body.code,
  });
  assert.is(up.status, 201, up.text);
  const foreign = await t.post(
    '/api/auth/wallet/login',
    await signInMessage(t, wallet, (f) => ((f.domain = 'evil.example:7878'), (f.uri = 'http://evil.example:7878'))),
  );
  assert.equal([foreign.status, foreign.body.code], [401, 'siwe_message_invalid']);
  const mixed = await t.post(
    '/api/auth/wallet/login',
    await signInMessage(t, wallet, (f) => (f.domain = 'localhost:7878')),
  );
  assert.equal([mixed.status, mixed.body.code], [401, 'siwe_message_invalid']);
});

test.run();
