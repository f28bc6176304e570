import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword, verifyPassword } from '../../../daemon/auth/passwords.js';
import { CHEAP_AUTH, createTestApp } from '../../helpers/test-app.js';
import { newInvite } from '../../helpers/signup.js';

// The limits are 12 and 128 inclusive, counted in characters (code points), not UTF-16 units: a
// test of 5 and 129 characters passes with < and <= swapped, or with .length in place of [...s].
test('a new password of 12 to 128 characters is taken; 11 or 129 is refused; an emoji is one character', async () => {
  const t = await createTestApp();
  let n = 0;
  const signUp = async (password: string) =>
    (
      await t.post('/api/auth/signup', {
        email: `length-${++n}@example.com`,
        password,
        invite_code: await newInvite(t),
      })
    ).status;
  assert.is(await signUp('x'.repeat(11)), 400, '11');
  assert.is(await signUp('x'.repeat(12)), 200, '12');
  assert.is(await signUp('x'.repeat(128)), 200, '128');
  assert.is(await signUp('x'.repeat(129)), 400, '129');
  assert.is(await signUp('🔑'.repeat(128)), 200, '128 emoji (256 UTF-16 units)');
  assert.is(await signUp('🔑'.repeat(11)), 400, '11 emoji (22 UTF-16 units)');
});

// SECURITY.md: over-long input is refused before any hashing, so a huge "password" buys no scrypt
// work. The cap is on what is typed at login (4 × 128, room for input that NFKC shortens).
test('verifying refuses a password over 512 characters even when it is the right one', async () => {
  const params = CHEAP_AUTH.passwordHash;
  for (const [length, expected] of [
    [512, true],
    [513, false],
  ] as const) {
    const password = 'y'.repeat(length);
    assert.is(
      await verifyPassword(password, await hashPassword(password, params), params.maxmem),
      expected,
      `${length}`,
    );
  }
});

test.run();
