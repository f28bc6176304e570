import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ConfiguredEvent, Quest } from '../../../../daemon/company/company-services.js';
import { createPostgresRuntimeStores } from '../../../../daemon/store/postgres/runtime/index.js';
import { StoreConflict, type RuntimeSessionRecord, type RuntimeStores } from '../../../../daemon/store/types.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { PgFixture } from './pg-fixture.js';
import { randomBytes } from 'node:crypto';
import { acceptDelivery } from '../../../../daemon/company/channels/accept-delivery.js';
import { createChannel } from '../../../../daemon/company/channels/channel-secrets.js';
import { createDeliveryDedup } from '../../../../daemon/company/channels/delivery-dedup.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import { createSealer } from '../../../../daemon/store/sealer.js';
import { signDelivery, signDeliveryV1 } from '../../../../shared/webhook-signature.js';

/**
 * The per-Company stores' compound operations with two daemons (two pools, no connection shared)
 * on one database: every check-and-set decides once, whichever daemon asks, and concurrent
 * appends never lose or share a place.
 */
const AT = '2026-01-15T12:00:00.000Z';
const T = (m: number) => new Date(Date.UTC(2026, 0, 15, 12, m)).toISOString();
const session = (id: string): RuntimeSessionRecord => ({
  id,
  agent_id: 'ag_1',
  status: 'active',
  gateway_channel_id: null,
  created_at: AT,
  turn_status: 'idle',
  turns_completed: 0,
  context_budget: null,
  context_used: 0,
  stopped_at: null,
  message_count: 0,
});
const quest = (id: string): Quest => ({
  id,
  title: id,
  status: 'open',
  agent_id: null,
  session_id: null,
  result: 0,
  created_at: AT,
  updated_at: AT,
});
const cfg = (id: string): ConfiguredEvent => ({
  id,
  type: 'session:start',
  tool_calls: [],
  agent_id: null,
  session_id: null,
  quest_id: null,
  enabled: true,
  status: 'active',
  created_at: AT,
});

const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: per-Company stores shared by two daemons');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());
  let n = 0;
  /** The same Company's stores on two daemons. */
  const two = async (): Promise<[RuntimeStores, RuntimeStores]> => {
    const company = `co_two_${++n}`;
    const [a, b] = await Promise.all([fx.daemon(6), fx.daemon(6)]);
    return [createPostgresRuntimeStores(a.pool, company), createPostgresRuntimeStores(b.pool, company)];
  };
  const onEither = <T>(
    pair: [RuntimeStores, RuntimeStores],
    count: number,
    run: (s: RuntimeStores, i: number) => Promise<T>,
  ) => Promise.allSettled(Array.from({ length: count }, (_, i) => run(pair[i % 2]!, i)));

  test('schedule ticks: every tick of every schedule is claimed once, whichever walks race for it', async () => {
    const pair = await two();
    const schedules = ['s_a', 's_b', 's_c', 's_d'];
    // 24 walks over both daemons, each offering the same three ticks of every schedule in its own
    // order (new cursors included), some before others: each (schedule, tick) fires exactly once.
    const results = await onEither(pair, 24, (s, i) => {
      const order = i % 3 === 0 ? [...schedules].reverse() : schedules;
      const ticks = [1, 2, 3].slice(0, 1 + (i % 3));
      return s.ticks.commit(
        order.flatMap((id) => ticks.map((m) => ({ id, active: true, baseline: T(0), tick: T(m) }))),
      );
    });
    assert.ok(
      results.every((r) => r.status === 'fulfilled'),
      'no walk failed (no deadlock)',
    );
    const claims = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : [])).map((c) => `${c.id}@${c.tick}`);
    assert.equal(claims.slice().sort(), schedules.flatMap((id) => [1, 2, 3].map((m) => `${id}@${T(m)}`)).sort());
    assert.equal(await pair[1].ticks.get('s_c'), { last_tick: T(3), active: true, baseline: T(0) });
  });

  test('transcripts: 40 appends over two daemons take 40 places; each daemon keeps its call order', async () => {
    const pair = await two();
    await pair[0].sessions.create(session('se_1'), []);
    const grow = (s: RuntimeSessionRecord) => ({ ...s, context_used: (s.context_used ?? 0) + 1 });
    const results = await onEither(pair, 40, (s, i) =>
      s.transcripts.append('se_1', { at: AT, from: i % 2 ? 'b' : 'a', text: `m${i}` }, grow),
    );
    assert.ok(results.every((r) => r.status === 'fulfilled'));
    const texts = (await pair[1].transcripts.list('se_1')).map((m) => m.text);
    assert.is(texts.length, 40);
    assert.is(new Set(texts).size, 40);
    const byDaemon = (parity: number) => texts.filter((t) => Number(t.slice(1)) % 2 === parity);
    assert.equal(
      byDaemon(0),
      Array.from({ length: 20 }, (_, i) => `m${2 * i}`),
    );
    assert.equal(
      byDaemon(1),
      Array.from({ length: 20 }, (_, i) => `m${2 * i + 1}`),
    );
    const s = await pair[0].sessions.get('se_1');
    assert.is(s?.message_count, 40);
    assert.is(s?.context_used, 40);
  });

  test('a session stopped on one daemon refuses a message appended on the other, atomically', async () => {
    const pair = await two();
    await pair[0].sessions.create(session('se_1'), []);
    const refuseStopped = (s: RuntimeSessionRecord) => {
      if (s.status !== 'active') throw new Error('stopped');
      return s;
    };
    const stop = pair[0].sessions.update('se_1', (s) => ({ ...s, status: 'stopped', stopped_at: AT }));
    const append = pair[1].transcripts.append('se_1', { at: AT, from: 'user', text: 'late' }, refuseStopped);
    const [, appended] = await Promise.allSettled([stop, append]);
    const kept = await pair[1].transcripts.list('se_1');
    const s = await pair[1].sessions.get('se_1');
    assert.is(s?.status, 'stopped');
    // Either the message came first (kept, counted) or the stop did (refused, nothing kept): never half.
    if (appended.status === 'fulfilled') assert.equal([kept.length, s?.message_count], [1, 1]);
    else assert.equal([kept.length, s?.message_count], [0, 0]);
  });

  test('quests: concurrent changes over two daemons lose none; a move from open happens once', async () => {
    const pair = await two();
    await pair[0].quests.create(quest('qs_1'));
    await onEither(pair, 30, (s) => s.quests.update('qs_1', (q) => ({ ...q, result: (q.result as number) + 1 })));
    assert.is((await pair[1].quests.get('qs_1'))?.result, 30);
    const moves = await onEither(pair, 12, (s, i) =>
      s.quests.update('qs_1', (q) => {
        if (q.status !== 'open') throw new Error('already taken');
        return { ...q, status: 'in_progress', agent_id: `ag_${i}` };
      }),
    );
    assert.is(moves.filter((m) => m.status === 'fulfilled').length, 1);
    const winner = moves.findIndex((m) => m.status === 'fulfilled');
    assert.is((await pair[0].quests.get('qs_1'))?.agent_id, `ag_${winner}`);
    assert.equal(
      (await pair[1].quests.list({ status: 'in_progress', agent_id: `ag_${winner}` })).map((q) => q.id),
      ['qs_1'],
    );
  });

  test('questions, channels and webhook deliveries: exactly one winner across daemons', async () => {
    const pair = await two();
    await pair[0].questions.add({
      id: 'qn_1',
      agent_id: 'ag_1',
      session_id: null,
      quest_id: null,
      question: 'Ship?',
      options: null,
      asked_event_id: null,
      status: 'open',
      answer: null,
      answered_by: null,
      created_at: AT,
      answered_at: null,
    });
    const answers = await onEither(pair, 10, (s, i) => s.questions.answer('qn_1', `a${i}`, `us_${i}`, AT));
    const ok = answers.flatMap((a) => (a.status === 'fulfilled' && a.value.ok ? [a.value.record] : []));
    assert.is(ok.length, 1);
    assert.is((await pair[1].questions.get('qn_1'))?.answer, ok[0]!.answer);
    const channel = {
      name: 'ci',
      secret_sealed: 'x',
      previous_sealed: null,
      previous_until: null,
      created_at: AT,
      rotated_at: null,
    };
    const creates = await onEither(pair, 10, (s) => s.channels.create(channel));
    assert.is(creates.filter((c) => c.status === 'fulfilled').length, 1);
    assert.ok(creates.every((c) => c.status === 'fulfilled' || c.reason instanceof StoreConflict));
    const seen = await onEither(pair, 10, (s) => s.deliveries.firstSeen('co/ci\u0000d1', Date.parse(AT)));
    assert.is(seen.filter((r) => r.status === 'fulfilled' && r.value).length, 1);
    assert.ok(seen.every((r) => r.status === 'fulfilled'));
  });

  test('webhook replays across daemons: v1 bytes under fresh ids are emitted once, v2 under a fresh id never', async () => {
    const pair = await two();
    const sealer = createSealer(randomBytes(32));
    const { record, secret } = createChannel('ci', { random: cryptoRandom, sealer, nowIso: AT });
    const now = Date.parse(AT);
    const raw = Buffer.from('{"text":"deploy"}');
    const deliver = (s: RuntimeStores, deliveryId: string, signature: string) =>
      acceptDelivery(
        {
          channel: 'ci',
          companyId: 'co',
          record,
          signature,
          deliveryId,
          contentType: undefined,
          rawBody: raw,
          nowMs: now,
        },
        { sealer, dedup: createDeliveryDedup(s.deliveries) },
      );
    const v1 = signDeliveryV1(secret, raw, now);
    const v1s = await onEither(pair, 10, (s, i) => deliver(s, `v1-${i}`, v1));
    const emitted = v1s.filter((r) => r.status === 'fulfilled' && r.value.ok && !r.value.duplicate);
    assert.is(emitted.length, 1, JSON.stringify(v1s));
    assert.ok(v1s.every((r) => r.status === 'fulfilled' && r.value.ok && r.value.scheme === 'v1'));
    const v2 = signDelivery({ secret, deliveryId: 'v2-0', rawBody: raw, nowMs: now });
    const v2s = await onEither(pair, 10, (s, i) => deliver(s, `v2-${i}`, v2));
    const outcomes = v2s.map((r) =>
      r.status === 'fulfilled' ? (r.value.ok ? `${r.value.duplicate}` : r.value.status) : 'threw',
    );
    assert.equal(outcomes, ['false', ...Array(9).fill(401)]);
  });

  test('a session and its seeded events commit together or not at all; Companies never meet', async () => {
    const [a, b] = await two();
    const broken = { ...cfg('ce_2'), type: null as never }; // violates NOT NULL: the whole write rolls back
    assert.instance(await a.sessions.create(session('se_1'), [cfg('ce_1'), broken]).catch((e) => e), Error);
    assert.is(await b.sessions.get('se_1'), undefined);
    assert.equal(await b.configured.list(), []);
    await a.sessions.create(session('se_1'), [cfg('ce_1')]);
    const [other] = await two();
    assert.is(await other.sessions.get('se_1'), undefined, 'another Company with the same ids sees nothing');
    assert.equal(await other.configured.list({ session_id: 'se_1' }), []);
    await other.agents.create({ id: 'ag_1', name: 'Other', role: null, created_at: AT });
    assert.equal(await b.agents.list(), []);
  });

  test.run();
}
