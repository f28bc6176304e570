import { openDatabase } from '../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../daemon/store/postgres/migrate.js';
import { createDeliveryStore } from '../../daemon/store/postgres/runtime/emitter-records.js';
import { createIdempotencyStore } from '../../daemon/store/postgres/runtime/idempotency.js';
import type { BenchCase, BenchRow } from '../harness.js';
import { benchDatabase } from '../team.js';

/**
 * Team mode's per-Company caps, in-process on the bench cluster: the store work of one keyed
 * request (claim the Idempotency-Key, remember the answer) in a Company that already holds 100,000
 * answers (the cap) against one that holds 1,000, and one webhook delivery id taken at 50,000 ids
 * (the cap) against 1,000. Each store used to count its Company's rows on every write, so a keyed
 * request cost ~24 ms at the cap against ~3 ms; counting now happens every few hundred writes.
 */
const SMALL = 1_000;
const ROUNDS = 3;
const PER_ROUND = 300;
const k = (n: number) => n.toLocaleString('en-US');

const teamCaps: BenchCase = {
  name: 'team mode caps (PostgreSQL)',
  async run() {
    const db = await openDatabase(await benchDatabase(), { max: 2 });
    try {
      await runMigrations(db.pool);
      const seed = async (table: string, company: string, n: number, doc: boolean) =>
        db.pool.query(
          `INSERT INTO ${table} (company_id, key, at_ms${doc ? ', doc' : ''})
           SELECT $1, convert_to('seed-' || g, 'UTF8'), $2${doc ? `, '{"fingerprint":"f","answer":null}'` : ''}
           FROM generate_series(1, $3::int) g`,
          [company, Date.now(), n],
        );
      const at = Date.now();
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
      await db.pool.query('VACUUM ANALYZE svc_rt_idempotency, svc_rt_deliveries');
      return [
        row(`keyed request (claim + remember) at ${k(100_000)} answers`, await compare(keyed, 'answers')),
        row(`webhook delivery id at ${k(50_000)} ids`, await compare(delivery, 'ids')),
      ];
    } finally {
      await db.close();
    }
  },
};
export default teamCaps;

/** Operations per second in the large Company and the small one, in alternating rounds (medians). */
async function compare(make: (company: string) => () => Promise<unknown>, what: string) {
  const small = make('cmp_caps_small');
  const large = make('cmp_caps_large');
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
  return { large: median(rates.large), small: median(rates.small), baselineName: `${k(SMALL)} ${what}` };
}

const row = (name: string, m: { large: number; small: number; baselineName: string }): BenchRow => ({
  name,
  value: m.large,
  unit: 'ops/s',
  baseline: m.small,
  baselineName: m.baselineName,
  target: '>= 0.8',
});
