import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRateLimiter } from '../../../../daemon/http/rate-limit.js';
import { createSharedFailureCeiling } from '../../../../daemon/store/postgres/failure-ceiling.js';
import { createSharedRateLimiter } from '../../../../daemon/store/postgres/rate-limit.js';
import { claimTicks, forgetTicks, pruneTicks } from '../../../../daemon/store/postgres/schedule-ticks.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { seededRandom } from '../../events/log/log-fixtures.js';
import { PgFixture } from './pg-fixture.js';

const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: limits and ticks shared by daemons');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());
  const daemons = (n: number) => Promise.all(Array.from({ length: n }, () => fx.daemon(6)));
  const SIGNUP = [{ limit: 1, windowMs: 60_000 }, { limit: 5, windowMs: 3_600_000 }];

  test('rate limit: 30 concurrent attempts over three daemons let exactly the limit through', async () => {
    const clock = new FakeClock();
    const limiters = (await daemons(3)).map((d) => createSharedRateLimiter(d.pool, clock, 'mail', [{ limit: 5, windowMs: 300_000 }]));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 3]!.hit('10.0.0.1')));
    assert.is(answers.filter((a) => a === null).length, 5);
    for (const wait of answers.filter((a) => a !== null)) assert.is(wait, 300);
    assert.is(await limiters[0]!.hit('10.0.0.2'), null, 'another key has its own bucket');
    clock.advance(300_000);
    assert.is(await limiters[1]!.hit('10.0.0.1'), null, 'the window slid past the first attempts');
  });

  test('rate limit: the same answers as the in-memory limiter, step by step (1/min and 5/hour)', async () => {
    const clock = new FakeClock();
    const [d] = await daemons(1);
    const shared = createSharedRateLimiter(d!.pool, clock, 'signup', SIGNUP);
    const local = createRateLimiter(clock, SIGNUP);
    const random = seededRandom(7);
    for (let i = 0; i < 120; i++) {
      clock.advance(Math.floor(random() * 50_000));
      const key = `e${Math.floor(random() * 3)}`;
      if (random() < 0.05) {
        local.reset(key);
        await shared.reset(key);
        continue;
      }
      assert.is(await shared.hit(key), local.hit(key), `step ${i}`);
    }
    const other = createSharedRateLimiter(d!.pool, clock, 'recovery', SIGNUP);
    assert.is(await other.hit('e0'), null, 'limiters with another name count apart');
    clock.advance(3_600_000);
    assert.ok((await shared.sweep()) >= 1);
    assert.is(await shared.hit('e1'), null);
  });

  test('failure ceiling: 10 failures spread over two daemons lock the account, for both', async () => {
    const clock = new FakeClock();
    const [a, b] = (await daemons(2)).map((d) => createSharedFailureCeiling(d.pool, clock, 10, 15 * 60_000));
    const counts = await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 ? a! : b!).fail('password:ada@example.test')));
    assert.equal([...counts].sort((x, y) => x - y), [1, 2, 3, 4, 5, 6, 7, 8, 9], 'each failure saw the ones before it');
    assert.is(await a!.lockedFor('password:ada@example.test'), null);
    assert.is(await b!.fail('password:ada@example.test'), 10);
    assert.is(await a!.lockedFor('password:ada@example.test'), 900);
    assert.is(await b!.lockedFor('password:ada@example.test'), 900);
    clock.advance(15 * 60_000);
    assert.is(await a!.lockedFor('password:ada@example.test'), null, 'the lock-out ends');
    assert.is(await a!.fail('password:ada@example.test'), 1, 'and the count starts again');
    await b!.succeed('password:ada@example.test');
    assert.is(await a!.fail('password:ada@example.test'), 1, 'a success clears it');
    clock.advance(25 * 3600_000);
    assert.ok((await a!.sweep()) >= 1);
  });

  test('schedule ticks: of three daemons offering the same ticks at once, each tick is claimed once; again after a restart, never', async () => {
    const pools = (await daemons(3)).map((d) => d.pool);
    const ticks = Array.from({ length: 40 }, (_, i) => ({ event_id: `cev_${i % 4}`, tick: new Date(Date.UTC(2026, 0, 15, 12, i)).toISOString() }));
    const won = await Promise.all(pools.map((pool) => claimTicks(pool, 'cmp_1', ticks)));
    const all = won.flat().map((c) => `${c.event_id}@${c.tick}`);
    assert.is(all.length, 40);
    assert.is(new Set(all).size, 40);
    assert.equal(await claimTicks(pools[0]!, 'cmp_1', ticks), [], 'a restarted daemon finds them claimed');
    assert.is((await claimTicks(pools[1]!, 'cmp_2', ticks.slice(0, 3))).length, 3, 'Companies claim apart');
    await forgetTicks(pools[0]!, 'cmp_1', ['cev_0']);
    assert.is((await claimTicks(pools[2]!, 'cmp_1', ticks)).length, 10, 'a deleted event forgets its claims');
    assert.is(await pruneTicks(pools[0]!, '2026-01-15T12:10:00.000Z'), 13);
    assert.equal(await claimTicks(pools[0]!, 'cmp_1', []), []);
  });

  test.run();
}
