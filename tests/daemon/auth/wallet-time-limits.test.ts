import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Wallet } from 'ethers';
import type { SiweMessage } from 'siwe';
import { createTestApp } from '../../helpers/test-app.js';
import { inviteCode, signInMessage } from '../../helpers/siwe.js';

// A SIWE message's times, to the millisecond: issued at most 10 minutes ago and at most a minute
// ahead (clock skew), `expirationTime` still ahead, `notBefore` reached. The SECURITY 12 test steps
// far past each limit, where < and <= (or a limit off by a second) answer alike.
test('SIWE message times: 10 min old or 60 s ahead is taken, one millisecond more is not; expiry and not-before are exact', async () => {
  const t = await createTestApp();
  const wallet = Wallet.createRandom();
  const up = await t.post('/api/auth/wallet/signup', {
    ...(await signInMessage(t, wallet)),
    invite_code: await inviteCode(t),
  });
  assert.is(up.status, 201, up.text);
  const at = (offsetMs: number) => new Date(t.clock.now() + offsetMs).toISOString();
  const cases: Array<[string, (m: Partial<SiweMessage>) => void, number]> = [
    ['issued 10 min ago', (m) => (m.issuedAt = at(-10 * 60_000)), 200],
    ['issued 10 min + 1 ms ago', (m) => (m.issuedAt = at(-10 * 60_000 - 1)), 401],
    ['issued 60 s ahead', (m) => (m.issuedAt = at(60_000)), 200],
    ['issued 60 s + 1 ms ahead', (m) => (m.issuedAt = at(60_001)), 401],
    ['expiring 1 ms from now', (m) => (m.expirationTime = at(1)), 200],
    ['expiring now', (m) => (m.expirationTime = at(0)), 401],
    ['valid from now', (m) => (m.notBefore = at(0)), 200],
    ['valid from 1 ms from now', (m) => (m.notBefore = at(1)), 401],
  ];
  for (const [label, edit, status] of cases) {
    const res = await t.post('/api/auth/wallet/login', await signInMessage(t, wallet, edit));
    assert.is(res.status, status, `${label}: ${res.text}`);
  }
});

test.run();
