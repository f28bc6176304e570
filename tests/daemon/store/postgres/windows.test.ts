import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  memoryWindows,
  type WindowRule,
  type WindowStore,
} from '../../../../daemon/company/detectors/window-counter.js';
import { createPostgresWindowStore } from '../../../../daemon/store/postgres/runtime/windows.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';

/**
 * Team mode's windows (migration 103): the same answers as a daemon's memory for the same events,
 * one count across daemons (pools), exactly one firing per crossing under concurrent hits, and a
 * table that keeps only windows that can still count.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres windows: one count across daemons');
  const daemons = new PgFixture(cluster).twoDaemons(test, 6);
  let companies = 0;
  const company = () => `cmp_windows_${++companies}`;

  /** A script of hits and questions, run against a store; its answers in order. */
  const script = async (w: WindowStore) => {
    const rule: WindowRule = { count: 3, within_ms: 60_000, cooldown_ms: 300_000 };
    const short: WindowRule = { count: 2, within_ms: 1_000, cooldown_ms: 0 };
    const out: unknown[] = [];
    for (const [key, at] of [
      ['cfg_1|*', 1_000],
      ['cfg_1|*', 2_000],
      ['cfg_1|a:x', 2_500], // another group of the same rule
      ['cfg_1|*', 3_000], // the third within the minute: fires
      ['cfg_1|*', 4_000], // cooling down: not counted
    ] as const)
      out.push(await w.hit(key, at, rule));
    out.push(await w.coolingDown('cfg_1|*', 10_000), await w.coolingDown('cfg_1|a:x', 10_000));
    out.push(await w.coolingDown('cfg_1|*', 303_000), 'after the cooldown');
    for (const at of [303_000, 304_000, 370_000, 371_000, 372_000]) out.push(await w.hit('cfg_1|*', at, rule));
    // Two in a second fire; one a second later starts again (the older left the window).
    for (const at of [0, 2_000, 2_500]) out.push(await w.hit('loop|s_1|abc', at, short));
    await w.forget('cfg_1|');
    out.push(await w.hit('cfg_1|a:x', 3_000, rule), 'forgotten: counts afresh');
    out.push(await w.hit('we\\ird\u0000key', 0, { count: 1, within_ms: 10, cooldown_ms: 5 }));
    out.push(await w.coolingDown('we\\ird\u0000key', 4), await w.coolingDown('we\\ird', 4));
    return out;
  };

  test('the same answers as the in-memory counter, event for event', async () => {
    const expected = await script(memoryWindows());
    assert.equal(await script(createPostgresWindowStore(daemons.a.pool, company())), expected);
    assert.equal(expected.slice(0, 5), [false, false, false, true, false]);
  });

  test('hits through two daemons count toward one window, and a cooldown holds on both', async () => {
    const id = company();
    const [onA, onB] = [createPostgresWindowStore(daemons.a.pool, id), createPostgresWindowStore(daemons.b.pool, id)];
    const rule = { count: 3, within_ms: 60_000, cooldown_ms: 60_000 };
    assert.equal(
      [await onA.hit('k', 1, rule), await onB.hit('k', 2, rule), await onA.hit('k', 3, rule)],
      [false, false, true],
    );
    assert.ok(await onB.coolingDown('k', 4));
    assert.not.ok(await onB.hit('k', 5, rule), 'the cooldown set through A holds on B');
    // Another Company's window of the same key is its own.
    assert.not.ok(await createPostgresWindowStore(daemons.b.pool, company()).coolingDown('k', 4));
  });

  test('concurrent hits from two daemons: exactly one firing per crossing', async () => {
    const id = company();
    const stores = [createPostgresWindowStore(daemons.a.pool, id), createPostgresWindowStore(daemons.b.pool, id)];
    const burst = async (rule: WindowRule, key: string, n: number) =>
      (await Promise.all(Array.from({ length: n }, (_, i) => stores[i % 2]!.hit(key, 1_000 + i, rule)))).filter(Boolean)
        .length;
    assert.is(await burst({ count: 5, within_ms: 60_000, cooldown_ms: 60_000 }, 'cooling', 40), 1);
    assert.is(await burst({ count: 5, within_ms: 60_000, cooldown_ms: 0 }, 'every-fifth', 40), 8);
  });

  test('windows that can count nothing more are removed by later hits', async () => {
    const id = company();
    const w = createPostgresWindowStore(daemons.a.pool, id);
    const rule = { count: 10, within_ms: 1_000, cooldown_ms: 0 };
    for (let i = 0; i < 30; i++) await w.hit(`once-${i}`, i, rule);
    const rows = async () =>
      Number(
        (await daemons.a.pool.query('SELECT count(*) AS n FROM svc_rt_windows WHERE company_id = $1', [id])).rows[0].n,
      );
    assert.is(await rows(), 30);
    // Long after: each hit removes up to 8 dead rows of its Company.
    for (let i = 0; i < 4; i++) await w.hit('live', 100_000 + i, rule);
    assert.is(await rows(), 1, 'only the live window is left');
  });

  test("a hit's cleanup does not read the whole table on its generic plan", async () => {
    const client = await daemons.a.pool.connect();
    try {
      await client.query('BEGIN');
      // A deployment of one Company with many live windows (all rolled back): its statistics make
      // "this Company's rows expired by now" look like a third of the table.
      await client.query(
        `INSERT INTO svc_rt_windows (company_id, key, expires_at)
         SELECT 'cmp_windows_many', 'k' || i, 9e15 FROM generate_series(1, 20000) i`,
      );
      await client.query('ALTER TABLE svc_rt_windows ALTER COLUMN company_id SET (n_distinct = 1)');
      await client.query('ANALYZE svc_rt_windows');
      // PL/pgSQL keeps a generic plan once five calls on a connection found it no costlier: ask for it now.
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const seqScans = async () =>
        Number(
          (await client.query("SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'svc_rt_windows'")).rows[0]
            .seq_scan,
        );
      const before = await seqScans();
      await client.query('SELECT svc_window_hit($1, $2, $3, 3, 1000, 0)', ['cmp_windows_many', 'k1', 1_000]);
      assert.is((await seqScans()) - before, 0, "the cleanup read every Company's windows");
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  test.run();
}
