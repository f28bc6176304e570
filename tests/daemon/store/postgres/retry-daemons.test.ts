import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRetryWalker } from '../../../../daemon/company/bus/retry/walker.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import type { EventRow } from '../../../../daemon/company/company-services.js';
import { withTransaction } from '../../../../daemon/store/postgres/connect.js';
import { createPostgresRuntimeStores } from '../../../../daemon/store/postgres/runtime/index.js';
import { NEXT_DUE } from '../../../../daemon/store/postgres/runtime/retries.js';
import type { PendingRetry, RuntimeStores } from '../../../../daemon/store/types.js';
import { createFakeTimer } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';

/**
 * Retries in team mode: two daemons (two pools) each run the due-retry walker over the same
 * Company; every due attempt runs on exactly one of them, and its settlement is written once.
 */
const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: a due retry is taken by one daemon only');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());

  test('twenty due retries, two daemons walking at once: each attempt runs once', async () => {
    const clock = new FakeClock();
    const company = 'co_retry_two';
    const [a, b] = await Promise.all([fx.daemon(6), fx.daemon(6)]);
    const stores = [createPostgresRuntimeStores(a.pool, company), createPostgresRuntimeStores(b.pool, company)];
    const cfg = { id: 'cev_a', type: 'webhook:x', tool_calls: [], agent_id: null, session_id: null, quest_id: null };
    await stores[0]!.configured.create({ ...cfg, enabled: true, status: 'active', created_at: '2026-01-15T12:00:00Z' });
    const ids = Array.from({ length: 20 }, (_, i) => `evt_${i}`);
    for (const e of ids) {
      const r: PendingRetry = {
        id: `${e}|cev_a|0`,
        event_id: e,
        configured_event_id: 'cev_a',
        call_index: 0,
        call: { tool: 'quests.create', args: { title: e } },
        policy: { max_attempts: 3, backoff: { initial_ms: 1000, max_ms: 1000, jitter: 'full' } },
        attempt: 2,
        due_ms: clock.now(),
        last_delay_ms: 1000,
        state: 'pending',
        lease_until_ms: null,
      };
      await stores[0]!.firings.add(e, [{ configured_event_id: 'cev_a', tool: 'quests.create', ok: false }], [], {
        put: [r],
      });
    }
    const runs: string[] = [];
    const walker = (s: RuntimeStores, daemon: string) =>
      createRetryWalker({
        clock,
        random: cryptoRandom,
        retries: s.retries,
        firings: s.firings,
        configured: s.configured,
        events: { get: async (id) => ({ id, type: 'webhook:x' }) as EventRow },
        // The tool call as the daemon would run it: here it records which daemon ran which event.
        runCall: async (c, call, event) => {
          runs.push(`${daemon}:${event.id}`);
          return { firing: { configured_event_id: c.id, tool: call.tool, ok: true, result: null }, retryable: false };
        },
        timer: createFakeTimer(),
      });
    const walkers = [walker(stores[0]!, 'a'), walker(stores[1]!, 'b')];
    await Promise.all([walkers[0]!.walk(), walkers[1]!.walk(), walkers[0]!.walk(), walkers[1]!.walk()]);
    const ran = runs.map((r) => r.split(':')[1]).sort();
    assert.equal(ran, [...ids].sort(), 'each event ran once');
    for (const e of ids) {
      const fired = await stores[1]!.firings.of(e);
      assert.equal(
        fired.map((f) => [f.attempt ?? null, f.outcome ?? null]),
        [
          [null, null],
          [2, 'succeeded'],
        ],
      );
    }
    assert.is(await stores[0]!.retries.countFor('cev_a'), 0);
  });

  test("the walker's next wake reads two index entries, not every waiting retry", async () => {
    const db = await fx.daemon(1);
    const plan = await withTransaction(db.pool, async (client) => {
      // Forbidden a whole-table read and a sort, the cheaper plans only while the table is this small.
      await client.query('SET LOCAL enable_seqscan = off');
      await client.query('SET LOCAL enable_sort = off');
      const { rows } = await client.query(`EXPLAIN ${NEXT_DUE}`, ['co_retry_plan']);
      return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    });
    assert.match(plan, /svc_rt_retries_by_due/);
    assert.match(plan, /svc_rt_retries_running/);
    assert.not.match(plan, /Aggregate/);
  });

  test.run();
}
