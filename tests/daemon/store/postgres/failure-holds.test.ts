import { setTimeout as sleep } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFailureCeiling, HOLD_LEASE_MS } from '../../../../daemon/http/failure-ceiling.js';
import { createPostgresLimitStore } from '../../../../daemon/store/postgres/limit-store.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';

/**
 * SECURITY.md's ceiling (10 consecutive failures lock an account for 15 minutes) with attempts in
 * flight on two daemons at once (two pools on one database): a parallel burst of guesses split
 * over both gets exactly 10 checks, right answers are never counted as failures, and a place held
 * by a daemon that died ends with its lease.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres failure ceiling: attempts in flight counted across daemons');
  const daemons = new PgFixture(cluster).twoDaemons(test, 12);
  const LOCK_MS = 15 * 60_000;
  const twoDaemons = () => {
    const clock = new FakeClock();
    const stores = [createPostgresLimitStore(daemons.a.pool), createPostgresLimitStore(daemons.b.pool)];
    return { clock, stores, ceilings: stores.map((s) => createFailureCeiling(s, clock, 'account', 10, LOCK_MS)) };
  };

  test('30 parallel wrong guesses over two daemons: exactly 10 are checked, the rest find the lock-out', async () => {
    const { ceilings } = twoDaemons();
    let checked = 0;
    const guess = async () => {
      checked++;
      await sleep(5); // a check takes a while (scrypt): the others arrive meanwhile
      return false;
    };
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => ceilings[i % 2]!.attempt('pwd:burst@example.com', guess, Boolean)),
    );
    assert.is(checked, 10, 'never more tries than the ceiling');
    assert.is(outcomes.filter((o) => o.locked === null).length, 10);
    assert.ok(outcomes.filter((o) => o.locked !== null).every((o) => o.locked === LOCK_MS / 1000));
    for (const c of ceilings) assert.is(await c.lockedFor('pwd:burst@example.com'), LOCK_MS / 1000);
    const holds = await daemons.a.pool.query(
      "SELECT count(*)::int AS n FROM svc_failure_holds WHERE key LIKE 'account|pwd:burst%'",
    );
    assert.is(holds.rows[0].n, 0, 'every place was released');
  });

  test('right answers arriving together at 9 failures are all let through and never counted', async () => {
    const { ceilings } = twoDaemons();
    const key = 'pwd:owner@example.com';
    for (let i = 0; i < 9; i++) await ceilings[i % 2]!.fail(key);
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => ceilings[i % 2]!.attempt(key, async () => true, Boolean)),
    );
    assert.ok(outcomes.every((o) => o.locked === null && o.value === true));
    for (const c of ceilings) assert.is(await c.lockedFor(key), null);
    assert.is(await createPostgresLimitStore(daemons.b.pool).failures(`account|${key}`, 0), 0);
  });

  test('a place held by a daemon that died ends with its lease; then the attempt runs', async () => {
    const { clock, stores, ceilings } = twoDaemons();
    const key = 'pwd:stale@example.com';
    for (let i = 0; i < 9; i++) await ceilings[0]!.fail(key);
    // Daemon A took a place and died before counting its outcome.
    assert.ok(await stores[0]!.holdAttempt!(`account|${key}`, 'dead-daemon', clock.now(), 10, HOLD_LEASE_MS));
    let checked = 0;
    const attempt = ceilings[1]!.attempt(
      key,
      async () => {
        checked++;
        return false;
      },
      Boolean,
    );
    await sleep(150);
    assert.is(checked, 0, '9 failures and 1 place held: the 10th try waits');
    clock.advance(HOLD_LEASE_MS);
    assert.is((await attempt).locked, null);
    assert.is(checked, 1);
    assert.is(await ceilings[0]!.lockedFor(key), LOCK_MS / 1000, 'that failure was the 10th');
  });

  test.run();
}
