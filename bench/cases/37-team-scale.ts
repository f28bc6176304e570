import type pg from 'pg';
import { openDatabase } from '../../daemon/store/postgres/connect.js';
import { createPostgresLimitStore } from '../../daemon/store/postgres/limit-store.js';
import { runMigrations } from '../../daemon/store/postgres/migrate.js';
import { createDeliveryStore } from '../../daemon/store/postgres/runtime/emitter-records.js';
import { createIdempotencyStore } from '../../daemon/store/postgres/runtime/idempotency.js';
import type { BenchCase, BenchRow } from '../harness.js';
import { benchDatabase } from '../team.js';

/**
 * Team mode's stores where rows pile up, in-process on the bench cluster: the store work of one
 * keyed request (claim the Idempotency-Key, remember the answer) in a Company that already holds
 * 100,000 answers (the cap) against one that holds 1,000; one webhook delivery id taken at 50,000
 * ids (the cap) against 1,000; one failed sign-in while 100,000 accounts have recent failures (a
 * password spray) against 1,000. The first two counted the Company's rows on every write (~24 ms a
 * keyed request at the cap against ~3 ms), the third read the failures table whole for its sweep.
 */
const SMALL = 1_000;
const ROUNDS = 3;
const PER_ROUND = 300;
const k = (n: number) => n.toLocaleString('en-US');

const teamCaps: BenchCase = {
  name: 'team mode at scale (PostgreSQL stores)',
  async run() {
    const db = await openDatabase(await benchDatabase(), { max: 2 });
    const sprayed = await openDatabase(await benchDatabase(), { max: 2 });
    const at = Date.now();
    try {
      await Promise.all([runMigrations(db.pool), runMigrations(sprayed.pool)]);
      const seed = async (table: string, company: string, n: number, doc: boolean) =>
        db.pool.query(
          `INSERT INTO ${table} (company_id, key, at_ms${doc ? ', doc' : ''})
           SELECT $1, convert_to('seed-' || g, 'UTF8'), $2${doc ? `, '{"fingerprint":"f","answer":null}'` : ''}
           FROM generate_series(1, $3::int) g`,
          [company, at, n],
        );
      let n = 0;
      const keyed = (company: string) => {
        const store = createIdempotencyStore(db.pool, company);
        return async () => {
          const key = `bench\u0000${++n}`;
          await store.claim!(key, 'fp', at);
          await store.remember(key, { fingerprint: 'fp', answer: { ok: true } }, at);
        };
      };
      const delivery = (company: string) => {
        const store = createDeliveryStore(db.pool, company);
        return () => store.firstSeen(`bench\u0000${++n}`, at);
      };
      await seed('svc_rt_idempotency', 'cmp_caps_small', SMALL, true);
      await seed('svc_rt_idempotency', 'cmp_caps_large', 100_000, true);
      await seed('svc_rt_deliveries', 'cmp_caps_small', SMALL, false);
      await seed('svc_rt_deliveries', 'cmp_caps_large', 50_000, false);
      // Failures are the deployment's, not a Company's: the same statement on two databases.
      const failing = (pool: pg.Pool) => {
        const store = createPostgresLimitStore(pool);
        return () => store.fail(`spray${++n}@example.com`, at, { max: 10, lockMs: 900_000 });
      };
      const tracked = (pool: pg.Pool, count: number) =>
        pool.query(
          `INSERT INTO svc_failures (key, failures, locked_until, last_at)
           SELECT 'seed' || g || '@example.com', 3, 0, $1 FROM generate_series(1, $2::int) g`,
          [at, count],
        );
      await Promise.all([tracked(db.pool, SMALL), tracked(sprayed.pool, 100_000)]);
      await Promise.all([db, sprayed].map((d) => d.pool.query('VACUUM ANALYZE')));
      return [
        row(
          `keyed request (claim + remember) at ${k(100_000)} answers`,
          await compare(keyed('cmp_caps_large'), keyed('cmp_caps_small'), `${k(SMALL)} answers`),
        ),
        row(
          `webhook delivery id at ${k(50_000)} ids`,
          await compare(delivery('cmp_caps_large'), delivery('cmp_caps_small'), `${k(SMALL)} ids`),
        ),
        row(
          `failed sign-in while ${k(100_000)} accounts have failures`,
          await compare(failing(sprayed.pool), failing(db.pool), k(SMALL)),
        ),
      ];
    } finally {
      await Promise.all([db.close(), sprayed.close()]);
    }
  },
};
export default teamCaps;

/** Operations per second with many rows and with few, in alternating rounds (medians). */
async function compare(large: () => Promise<unknown>, small: () => Promise<unknown>, baselineName: string) {
  const rate = async (op: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await op();
    return (PER_ROUND * 1000) / (performance.now() - started);
  };
  await rate(small);
  await rate(large);
  const rates = { small: [] as number[], large: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.small.push(await rate(small));
    rates.large.push(await rate(large));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { large: median(rates.large), small: median(rates.small), baselineName };
}

const row = (name: string, m: { large: number; small: number; baselineName: string }): BenchRow => ({
  name,
  value: m.large,
  unit: 'ops/s',
  baseline: m.small,
  baselineName: m.baselineName,
  target: '>= 0.8',
});
