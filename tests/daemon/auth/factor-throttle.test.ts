import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, type TestApp, type TestResponse } from '../../helpers/test-app.js';

// SECURITY.md: each login factor takes 30 requests per client address per 5 minutes. Nothing
// counted them, so a limit of 31 (or none) passed the suite. Each factor has its own bucket.
// Each request names another account, so the per-account ceiling (10 failures) is not what answers.
const factors: Array<[string, (t: TestApp, i: number) => Promise<TestResponse>]> = [
  ['TOTP login', (t) => t.post('/api/auth/totp/login', { partial_token: 'x', code: '000000' })],
  [
    'login code',
    (t, i) => t.post('/api/auth/login/code/consume', { email: `nobody-${i}@example.com`, code: '000000' }),
  ],
  ['magic link', (t) => t.post('/api/auth/login/magic/consume', { token: 'x'.repeat(43) })],
  ['wallet nonce', (t) => t.post('/api/auth/wallet/nonce', { address: `0x${'ab'.repeat(20)}` })],
  ['passkey login', (t) => t.post('/api/auth/passkey/login-begin', {})],
];

test('a login factor answers 30 requests from one address per 5 minutes; the 31st is a 429 with Retry-After', async () => {
  for (const [name, send] of factors) {
    const t = await createTestApp();
    for (let i = 1; i <= 30; i++) assert.is.not((await send(t, i)).status, 429, `${name}: request ${i}`);
    const over = await send(t, 31);
    assert.is(over.status, 429, `${name}: request 31`);
    assert.ok(Number(over.headers['retry-after']) > 0, name);
    t.clock.advance(5 * 60_000);
    assert.is.not((await send(t, 32)).status, 429, `${name}: 5 minutes later`);
  }
});

test.run();
