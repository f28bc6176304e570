import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChallengeRecord, PasskeyRecord } from '../../../daemon/store/factor-types.js';
import { storeImplementations } from '../../helpers/store-implementations.js';

/** The challenge, passkey and wallet stores, against memory and JSON files alike. */

const T0 = '2026-01-15T12:00:00.000Z';
const T1 = '2026-01-15T12:01:00.000Z';
const LATE = '2026-01-15T13:00:00.000Z';
const challenge = (over: Partial<ChallengeRecord> = {}): ChallengeRecord => ({
  id: 'chl_1',
  kind: 'siwe_nonce',
  subject: '0xabc',
  secret_hash: 'h1',
  tries: 0,
  created_at: T0,
  expires_at: '2026-01-15T12:10:00.000Z',
  ended_at: null,
  ...over,
});
const passkey = (over: Partial<PasskeyRecord> = {}): PasskeyRecord => ({
  id: 'cred1',
  user_id: 'usr_1',
  public_key: 'pk',
  counter: 1,
  transports: [],
  name: 'k',
  created_at: T0,
  last_used_at: null,
  ...over,
});

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`factor stores: ${name}`);

  test('a challenge is consumed once, by kind and hash, and not after expiry', async () => {
    const { stores, reopen } = await make();
    await stores.challenges.create(challenge());
    await stores.challenges.create(challenge({ id: 'chl_2', secret_hash: 'h2' }));
    assert.is(await stores.challenges.consume('webauthn_login', 'h1', T1), null, 'another kind');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stores.challenges.consume('siwe_nonce', 'h1', T1)),
    );
    assert.is(results.filter(Boolean).length, 1);
    assert.is(await stores.challenges.consume('siwe_nonce', 'h2', LATE), null, 'expired');
    if (reopen) assert.is(await (await reopen()).challenges.consume('siwe_nonce', 'h1', T1), null, 'ended on disk too');
  });

  test('countTry allows maxTries tries; end succeeds once', async () => {
    const { stores } = await make();
    await stores.challenges.create(challenge({ kind: 'partial_login' }));
    for (let i = 1; i <= 5; i++)
      assert.is((await stores.challenges.countTry('chl_1', 'partial_login', T1, 5))?.tries, i);
    assert.is(await stores.challenges.countTry('chl_1', 'partial_login', T1, 5), null);
    assert.is(await stores.challenges.end('chl_1', T1), true);
    assert.is(await stores.challenges.end('chl_1', T1), false);
  });

  test('passkeys: an id registers once; the counter only grows; remove is per user', async () => {
    const { stores, reopen } = await make();
    assert.is(await stores.passkeys.add(passkey()), true);
    assert.is(await stores.passkeys.add(passkey({ user_id: 'usr_2' })), false);
    assert.is(await stores.passkeys.advanceCounter('cred1', 1, T1), false);
    assert.is(await stores.passkeys.advanceCounter('cred1', 2, T1), true);
    const s = reopen ? await reopen() : stores;
    assert.is((await s.passkeys.find('cred1'))?.counter, 2);
    assert.is(await s.passkeys.remove('cred1', 'usr_2'), false);
    assert.is(await s.passkeys.remove('cred1', 'usr_1'), true);
    assert.equal(await s.passkeys.listByUser('usr_1'), []);
  });

  test('wallets: one address, one account, case-insensitively', async () => {
    const { stores } = await make();
    const results = await Promise.all([
      stores.wallets.link('0xABC', 'usr_1', T0),
      stores.wallets.link('0xabc', 'usr_2', T0),
    ]);
    assert.equal(results, [true, false]);
    assert.is(await stores.wallets.findUserId('0xAbC'), 'usr_1');
  });

  test.run();
}
