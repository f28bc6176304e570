import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../daemon/http/api-error.js';
import { createFailureCeiling } from '../../../daemon/http/failure-ceiling.js';
import { createRateLimiter } from '../../../daemon/http/rate-limit.js';
import { createMemoryStores } from '../../../daemon/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor } from '../../helpers/store-implementations.js';

const LOCK_MS = 15 * 60_000;
const ceilingOn = async (lockMs = LOCK_MS) => {
  const clock = new FakeClock();
  const stores = await createMemoryStores(storeDepsFor(clock));
  return { clock, stores, ceiling: createFailureCeiling(stores.limits, clock, 'account', 10, lockMs) };
};

test('failure ceiling: the 10th consecutive failure locks the key for 15 minutes, then it may try again', async () => {
  const { clock, ceiling } = await ceilingOn();
  for (let i = 0; i < 9; i++) await ceiling.fail('login_code:a@example.com');
  assert.is(await ceiling.lockedFor('login_code:a@example.com'), null);
  await ceiling.fail('login_code:a@example.com');
  assert.is(await ceiling.lockedFor('login_code:a@example.com'), 900);
  clock.advance(LOCK_MS);
  assert.is(await ceiling.lockedFor('login_code:a@example.com'), null);
  // After the lock-out the count starts again: one failure does not re-lock.
  await ceiling.fail('login_code:a@example.com');
  assert.is(await ceiling.lockedFor('login_code:a@example.com'), null);
});

test('failure ceiling: an attempt refused before anything was checked (429 busy, 503 unavailable, the database down or busy) counts nothing; other throws count', async () => {
  const { ceiling } = await ceilingOn();
  const key = 'pwd:busy@example.com';
  for (const status of [429, 503])
    for (let i = 0; i < 12; i++) {
      const refused = ceiling.attempt(key, () => Promise.reject(new ApiError(status, 'busy', 'try later')), Boolean);
      await refused.then(
        () => assert.unreachable('the check threw'),
        (err) => assert.is(err.status, status),
      );
    }
  assert.is(await ceiling.lockedFor(key), null, 'an overload never locks a user out');
  // Team mode: the database down, or the check's transaction stopped for another one (the codes
  // the real server gives: tests/daemon/store/postgres/transient-conflict.test.ts).
  for (const code of ['ECONNREFUSED', '57P01', '40P01', '40001', '55P03'])
    for (let i = 0; i < 12; i++)
      await ceiling
        .attempt(key, () => Promise.reject(Object.assign(new Error(code), { code })), Boolean)
        .catch(() => {});
  assert.is(await ceiling.lockedFor(key), null, 'a database that dropped the check never locks a user out');
  for (let i = 0; i < 10; i++)
    await ceiling.attempt(key, () => Promise.reject(new Error('the check broke')), Boolean).catch(() => {});
  assert.is(await ceiling.lockedFor(key), 900, 'a check that failed for another reason still counts');
});

test('failure ceiling: keys of unauthenticated callers (made-up e-mails) do not pile up', async () => {
  const { clock, ceiling } = await ceilingOn();
  // One wrong code each for 2 000 invented addresses, and one address driven into a lock-out.
  for (let i = 0; i < 2000; i++) await ceiling.fail(`login_code:nobody${i}@example.com`);
  for (let i = 0; i < 10; i++) await ceiling.fail('login_code:victim@example.com');
  assert.is(await ceiling.tracked(), 2001);
  // A day later, with the lock-out long over, each new failure forgets a few of the dead rows (a
  // bounded amount per write, never a scan of them all) until only the live key is left. (Rows are
  // filed by the minute they die in, and a minute is swept once it is over.)
  clock.advance(24 * 3600_000 + 60_000);
  await ceiling.fail('login_code:fresh@example.com');
  const afterOne = await ceiling.tracked();
  assert.ok(afterOne > 1900, `one write removed ${2002 - afterOne} rows`);
  for (let i = 0; i < 300; i++) await ceiling.fail('login_code:fresh@example.com');
  assert.is(await ceiling.tracked(), 1);
});

test('failure ceiling: a running lock-out is never swept early', async () => {
  const { clock, ceiling } = await ceilingOn(48 * 3600_000);
  for (let i = 0; i < 10; i++) await ceiling.fail('totp:usr_1');
  clock.advance(24 * 3600_000 + 1);
  for (let i = 0; i < 20; i++) await ceiling.fail(`totp:usr_${i + 2}`);
  assert.ok((await ceiling.lockedFor('totp:usr_1'))! > 0);
});

test('failure ceiling: 30 parallel right answers never count as failures; 30 parallel wrong ones get 10 tries', async () => {
  const { ceiling } = await ceilingOn();
  let checks = 0;
  const slow = (right: boolean) => async () => {
    checks++;
    await new Promise((r) => setImmediate(r));
    return right;
  };
  const rights = await Promise.all(
    Array.from({ length: 30 }, () => ceiling.attempt('pwd:a@example.com', slow(true), (ok) => ok)),
  );
  assert.ok(rights.every((r) => r.locked === null && r.value === true));
  assert.is(await ceiling.lockedFor('pwd:a@example.com'), null);
  checks = 0;
  const wrongs = await Promise.all(
    Array.from({ length: 30 }, () => ceiling.attempt('pwd:b@example.com', slow(false), (ok) => ok)),
  );
  assert.is(checks, 10, "only the ceiling's tries were checked");
  assert.is(wrongs.filter((r) => r.locked !== null).length, 20);
  assert.is(await ceiling.lockedFor('pwd:b@example.com'), 900);
});

test('rate limiter: sliding windows per key and scope; a refused attempt counts nothing', async () => {
  const clock = new FakeClock();
  const stores = await createMemoryStores(storeDepsFor(clock));
  const rules = [
    { limit: 1, windowMs: 60_000 },
    { limit: 3, windowMs: 3600_000 },
  ];
  const a = createRateLimiter(stores.limits, clock, 'a', rules);
  const b = createRateLimiter(stores.limits, clock, 'b', rules);
  assert.is(await a.hit('x'), null);
  assert.is(await a.hit('x'), 60);
  assert.is(await b.hit('x'), null, 'another scope has its own bucket');
  clock.advance(60_000);
  assert.is(await a.hit('x'), null);
  clock.advance(60_000);
  assert.is(await a.hit('x'), null);
  clock.advance(60_000);
  assert.is(await a.hit('x'), 3600 - 180, 'the hour rule: wait for the oldest to leave the window');
  await a.reset('x');
  assert.is(await a.hit('x'), null);
});

test.run();
