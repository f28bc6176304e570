import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { trimEvery } from '../../../../daemon/store/postgres/runtime/capped-rows.js';
import { createDeliveryStore } from '../../../../daemon/store/postgres/runtime/emitter-records.js';
import { createIdempotencyStore } from '../../../../daemon/store/postgres/runtime/idempotency.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';

/**
 * The per-Company caps of team mode (webhook delivery ids, idempotent answers): a store counts its
 * Company's rows only every few writes (counting takes time in proportion to them), never forgets
 * more than the excess, also with two daemons trimming at once, and never forgets a running claim.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres caps: delivery ids and idempotent answers');
  const daemons = new PgFixture(cluster).twoDaemons(test, 4);
  let company = 0;
  const fresh = () => `cmp_cap_${++company}`;
  const rows = async (table: string, id: string) =>
    Number(
      (await daemons.a.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1`, [id]))
        .rows[0]!.n,
    );
  const t0 = Date.parse('2026-01-15T12:00:00.000Z');

  test('trims are exact below 100 rows and at most 1% of the cap apart above', () => {
    assert.equal([1, 20, 99, 100, 1_000, 50_000, 100_000].map(trimEvery), [1, 1, 1, 1, 10, 256, 256]);
  });

  test('a store trims on its first write, then every trimEvery(max) writes: never far past the cap', async () => {
    const id = fresh();
    const deliveries = createDeliveryStore(daemons.a.pool, id, { maxIds: 1_000 });
    for (let i = 0; i < 1_015; i++) assert.ok(await deliveries.firstSeen(`ch\u0000d${i}`, t0 + i));
    // Trimmed after writes 1, 11, … 1,011 (to 1,000), then four more.
    assert.is(await rows('svc_rt_deliveries', id), 1_004);
    assert.not.ok(await deliveries.firstSeen('ch\u0000d1014', t0 + 2_000), 'the newest are kept');
    assert.ok(await deliveries.firstSeen('ch\u0000d0', t0 + 2_000), 'the oldest went first');
  });

  test('two daemons writing and trimming at once never forget more than the excess', async () => {
    const id = fresh();
    const stores = [daemons.a, daemons.b].map((d) => createIdempotencyStore(d.pool, id, { maxKeys: 50 }));
    let last = '';
    await Promise.all(
      stores.map(async (store, s) => {
        for (let i = 0; i < 100; i++) {
          await store.remember(`k\u0000${s}-${i}`, { fingerprint: 'f', answer: i }, t0 + i);
          last = `k\u0000${s}-${i}`;
        }
      }),
    );
    const left = await rows('svc_rt_idempotency', id);
    assert.ok(left >= 50 && left <= 52, `${left} answers kept of a cap of 50`);
    assert.ok(await stores[0]!.get(last, t0 + 200), 'the answer remembered last is kept');
  });

  test('a running claim is never trimmed: its request still waits for an answer', async () => {
    const id = fresh();
    const [a, b] = [daemons.a, daemons.b].map((d) => createIdempotencyStore(d.pool, id, { maxKeys: 20 }));
    const claimed = await a!.claim!('s\u0000running', 'fp-running', t0);
    assert.ok('token' in claimed);
    for (let i = 0; i < 40; i++) await a!.remember(`s\u0000k${i}`, { fingerprint: 'f', answer: i }, t0 + i);
    assert.equal(await b!.claim!('s\u0000running', 'fp-running', t0 + 100), { heldFor: 'fp-running' });
    assert.is(await rows('svc_rt_idempotency', id), 21, 'twenty answers and the claim');
  });

  test('a write sweeps at most 100 rows past their time, the oldest first: bounded work per request', async () => {
    const id = fresh();
    const old = t0 - 2 * 86_400_000; // past both the answers' 24 hours and the ids' 10 minutes
    for (const [table, doc] of [
      ['svc_rt_idempotency', `, '{"fingerprint":"f","answer":null}'`],
      ['svc_rt_deliveries', ''],
    ] as const)
      await daemons.a.pool.query(
        `INSERT INTO ${table} (company_id, key, at_ms${doc ? ', doc' : ''})
         SELECT $1, convert_to('old-' || g, 'UTF8'), $2::bigint + g${doc} FROM generate_series(1, 150) g`,
        [id, old],
      );
    const answers = createIdempotencyStore(daemons.a.pool, id);
    const deliveries = createDeliveryStore(daemons.a.pool, id);
    await answers.remember('s\u0000new-1', { fingerprint: 'f', answer: 1 }, t0);
    assert.ok(await deliveries.firstSeen('ch\u0000new-1', t0));
    assert.is(await rows('svc_rt_idempotency', id), 51, '100 of the 150 went; the new one came');
    assert.is(await rows('svc_rt_deliveries', id), 51);
    const oldest = await daemons.a.pool.query<{ key: Buffer }>(
      `SELECT key FROM svc_rt_deliveries WHERE company_id = $1 AND at_ms < $2 ORDER BY at_ms LIMIT 1`,
      [id, t0],
    );
    assert.is(oldest.rows[0]!.key.toString(), 'old-101', 'the oldest went first');
    await answers.remember('s\u0000new-2', { fingerprint: 'f', answer: 2 }, t0);
    assert.ok(await deliveries.firstSeen('ch\u0000new-2', t0));
    assert.is(await rows('svc_rt_idempotency', id), 2);
    assert.is(await rows('svc_rt_deliveries', id), 2);
  });

  test.run();
}
