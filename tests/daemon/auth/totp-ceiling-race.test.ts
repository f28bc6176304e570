import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_FACTORS } from '../../../daemon/factors-config.js';
import { completeFirstFactor } from '../../../daemon/auth/login-outcome.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';
import { codeNow, enableTotp } from '../../helpers/totp.js';

/**
 * Someone who knows the password can mint many partial tokens (5 tries each). The per-account
 * ceiling (10 failures → 15 min) must hold for guesses sent all at once, too: if the check and the
 * count were apart, a burst of 100 guesses would all be checked before the first failure counted.
 */
test('a burst of TOTP guesses over many partial tokens gets at most 10 checked before the lock-out', async () => {
  // The per-address throttle is lifted (the guesses may come from many addresses); file storage, so
  // store writes really wait on the disk and the requests interleave as in production.
  const t = await createTestApp({
    config: { auth: { factors: { ...DEFAULT_FACTORS, perAddressLimit: 10_000 } } } as never,
    storage: 'file',
  });
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const user = (await t.deps.stores.users.findById(u.user.id))!;
  const partials: string[] = [];
  for (let i = 0; i < 20; i++) {
    partials.push(
      (
        (await completeFirstFactor(t.deps, { get: () => '', ip: `10.0.0.${i}` }, user, ['pwd'])) as {
          partial_token: string;
        }
      ).partial_token,
    );
  }
  const right = codeNow(t, secret);
  const wrong = right === '000000' ? '111111' : '000000';
  const burst = await Promise.all(
    partials.flatMap((p) =>
      Array.from({ length: 5 }, () => t.post('/api/auth/totp/login', { partial_token: p, code: wrong })),
    ),
  );
  const checked = burst.filter((r) => r.status === 401 && r.body.code === 'totp_invalid_code').length;
  assert.ok(checked <= 10, `${checked} guesses were checked`);
  assert.ok(burst.every((r) => r.status === 401 || r.status === 429));
  // Locked: even the right code is refused now.
  const fresh = (
    (await completeFirstFactor(t.deps, { get: () => '', ip: '10.0.1.1' }, user, ['pwd'])) as { partial_token: string }
  ).partial_token;
  assert.is((await t.post('/api/auth/totp/login', { partial_token: fresh, code: right })).status, 429);
});

test.run();
