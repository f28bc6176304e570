import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { completeFirstFactor } from '../../../daemon/auth/login-outcome.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';
import { enableTotp } from '../../helpers/totp.js';

/**
 * Recovery codes carry 50 random bits: a plain SHA-256 of each in the users document lets anyone
 * holding that document test 2^50 guesses offline (a GPU-day). Like e-mailed codes, they must be
 * keyed with the server's code key, so the document alone checks nothing.
 */
test('stored recovery hashes are keyed: an unkeyed SHA-256 of a real code matches none of them', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { recoveryCodes } = await enableTotp(t, u);
  const stored = JSON.stringify(await t.deps.stores.users.findById(u.user.id));
  for (const code of recoveryCodes) {
    const plain = code.toLowerCase().replace(/[\s-]/g, '');
    for (const guess of [plain, `recovery:${plain}`])
      assert.not.ok(stored.includes(createHash('sha256').update(guess).digest('hex')), guess);
    assert.not.ok(stored.includes(plain));
  }
  // And the codes still work, once each, typed in any case and with or without the dash.
  const login = async (code: string) => {
    const outcome = (await completeFirstFactor(
      t.deps,
      { get: () => '', ip: '127.0.0.1' },
      (await t.deps.stores.users.findById(u.user.id))!,
      ['pwd'],
    )) as { partial_token: string };
    return t.post('/api/auth/totp/login', { partial_token: outcome.partial_token, code });
  };
  assert.is((await login(recoveryCodes[0]!.toUpperCase().replace('-', ''))).status, 200);
  assert.is((await login(recoveryCodes[0]!)).status, 401);
  assert.is((await login(recoveryCodes[1]!)).status, 200);
});

test.run();
