import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFailureCeiling } from '../../../daemon/http/rate-limit.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const LOCK_MS = 15 * 60_000;

test('failure ceiling: the 10th consecutive failure locks the key for 15 minutes, then it may try again', () => {
  const clock = new FakeClock();
  const ceiling = createFailureCeiling(clock, 10, LOCK_MS);
  for (let i = 0; i < 9; i++) ceiling.fail('login_code:a@example.com');
  assert.is(ceiling.lockedFor('login_code:a@example.com'), null);
  ceiling.fail('login_code:a@example.com');
  assert.is(ceiling.lockedFor('login_code:a@example.com'), 900);
  clock.advance(LOCK_MS);
  assert.is(ceiling.lockedFor('login_code:a@example.com'), null);
  // After the lock-out the count starts again: one failure does not re-lock.
  ceiling.fail('login_code:a@example.com');
  assert.is(ceiling.lockedFor('login_code:a@example.com'), null);
});

test('failure ceiling: keys of unauthenticated callers (made-up e-mails) do not pile up in memory', () => {
  const clock = new FakeClock();
  const ceiling = createFailureCeiling(clock, 10, LOCK_MS);
  // One wrong code each for 2 000 invented addresses, and one address driven into a lock-out.
  for (let i = 0; i < 2000; i++) ceiling.fail(`login_code:nobody${i}@example.com`);
  for (let i = 0; i < 10; i++) ceiling.fail('login_code:victim@example.com');
  assert.is(ceiling.tracked(), 2001);
  // A day later, with the lock-out long over, only the newest key is still remembered.
  clock.advance(24 * 3600_000 + 1);
  ceiling.fail('login_code:fresh@example.com');
  assert.is(ceiling.tracked(), 1);
});

test('failure ceiling: a running lock-out is never swept early', () => {
  const clock = new FakeClock();
  const ceiling = createFailureCeiling(clock, 10, 48 * 3600_000);
  for (let i = 0; i < 10; i++) ceiling.fail('totp:usr_1');
  clock.advance(24 * 3600_000 + 1);
  ceiling.fail('totp:usr_2');
  assert.ok(ceiling.lockedFor('totp:usr_1')! > 0);
});

test.run();
