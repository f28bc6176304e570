import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFailureCeiling } from '../../../../daemon/http/failure-ceiling.js';
import { createRateLimiter } from '../../../../daemon/http/rate-limit.js';
import { createMemoryStores } from '../../../../daemon/store/index.js';
import { withTransaction } from '../../../../daemon/store/postgres/connect.js';
import { createPostgresLimitStore, FAIL } from '../../../../daemon/store/postgres/limit-store.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { storeDepsFor } from '../../../helpers/store-implementations.js';
import { seededRandom } from '../event-log/log-fixtures.js';
import { PgFixture } from './pg-fixture.js';

const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: limits and ticks shared by daemons');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());
  const daemons = (n: number) => Promise.all(Array.from({ length: n }, () => fx.daemon(6)));
  const SIGNUP = [
    { limit: 1, windowMs: 60_000 },
    { limit: 5, windowMs: 3_600_000 },
  ];

  test('rate limit: 30 concurrent attempts over three daemons let exactly the limit through', async () => {
    const clock = new FakeClock();
    const limiters = (await daemons(3)).map((d) =>
      createRateLimiter(createPostgresLimitStore(d.pool), clock, 'mail_address', [{ limit: 5, windowMs: 300_000 }]),
    );
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 3]!.hit('10.0.0.1')));
    assert.is(answers.filter((a) => a === null).length, 5);
    for (const wait of answers.filter((a) => a !== null)) assert.is(wait, 300);
    assert.is(await limiters[0]!.hit('10.0.0.2'), null, 'another key has its own bucket');
    clock.advance(300_000);
    assert.is(await limiters[1]!.hit('10.0.0.1'), null, 'the window slid past the first attempts');
  });

  test('the same answers as the accounts store LimitStore, operation by operation', async () => {
    const clock = new FakeClock();
    const [d] = await daemons(1);
    const shared = createPostgresLimitStore(d!.pool);
    const local = (await createMemoryStores(storeDepsFor(clock))).limits;
    const random = seededRandom(7);
    const rule = { max: 3, lockMs: 120_000 };
    for (let i = 0; i < 300; i++) {
      clock.advance(Math.floor(random() * 50_000));
      const key = `k${Math.floor(random() * 3)}`;
      const now = clock.now();
      const op = Math.floor(random() * 6);
      const step = `step ${i} op ${op} ${key}`;
      if (op === 0) assert.is(await shared.hit(key, SIGNUP, now), await local.hit(key, SIGNUP, now), step);
      if (op === 1 && random() < 0.3) await Promise.all([shared.clear(key), local.clear(key)]);
      if (op === 2) await Promise.all([shared.fail(key, now, rule), local.fail(key, now, rule)]);
      if (op === 3 && random() < 0.3) await Promise.all([shared.succeed(key), local.succeed(key)]);
      assert.is(await shared.lockedFor(key, now), await local.lockedFor(key, now), step);
      assert.is(await shared.failures(key, now), await local.failures(key, now), step);
    }
  });

  test('failure ceiling: 10 failures spread over two daemons lock the account, for both', async () => {
    const clock = new FakeClock();
    const [a, b] = (await daemons(2)).map((d) =>
      createFailureCeiling(createPostgresLimitStore(d.pool), clock, 'password', 10, 15 * 60_000),
    );
    const key = 'ada@example.test';
    await Promise.all(Array.from({ length: 9 }, (_, i) => (i % 2 ? a! : b!).fail(key)));
    assert.is(await a!.lockedFor(key), null, 'nine failures are not enough');
    await b!.fail(key);
    assert.is(await a!.lockedFor(key), 900);
    assert.is(await b!.lockedFor(key), 900);
    clock.advance(15 * 60_000);
    assert.is(await a!.lockedFor(key), null, 'the lock-out ends');
    await a!.fail(key);
    const before = await a!.tracked(); // the database is shared with the other tests
    await b!.succeed(key);
    assert.is(await a!.tracked(), before - 1, 'a success clears the row');
    await a!.fail('bob@example.test');
    clock.advance(30 * 3600_000); // past a day since this suite's earlier failures too
    for (let i = 0; i < 3; i++) await b!.fail(`guess${i}@example.test`);
    assert.is(await a!.tracked(), 3, "rows idle for a day (these tests' included) are swept by later failures");
    for (let i = 0; i < 10; i++) await a!.fail('carol@example.test');
    assert.is(await a!.tracked(), 4);
    clock.advance(15 * 60_000 + 1);
    await b!.fail('dave@example.test');
    assert.is(await a!.tracked(), 4, 'a row whose lock-out is over is swept too (and the new one counted)');
    assert.is(await a!.lockedFor('carol@example.test'), null);
  });

  test('the sweep of every failure reads an index, not the table (a password spray over many accounts)', async () => {
    const [d] = await daemons(1);
    const plan = await withTransaction(d!.pool, async (client) => {
      // Forbidden a whole-table read, which is the cheaper plan only while the table is this small.
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN ${FAIL}`, ['x', 1, 10, 900_000, 86_400_000]);
      return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    });
    assert.match(plan, /svc_failures_lock_ends/);
    assert.match(plan, /svc_failures_quiet_since/);
  });

  test('the failure statement is planned once per connection, not on every failure', async () => {
    const [d] = await daemons(1);
    const client = await d!.pool.connect();
    try {
      // A named statement, as the pool makes of every text on each of its connections (connect.ts).
      for (let i = 0; i < 12; i++)
        await client.query({ name: 'fail', text: FAIL, values: [`plan${i}@example.test`, 1, 10, 900_000, 86_400_000] });
      const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'fail'",
      );
      assert.ok(Number(rows[0]!.generic_plans) >= 6, `planned for its values ${rows[0]!.custom_plans} times of 12`);
    } finally {
      client.release();
    }
  });

  test.run();
}
