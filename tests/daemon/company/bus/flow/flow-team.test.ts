import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openCompanyRuntime, type OpenedRuntime } from '../../../../../daemon/company/open-company.js';
import { createIdGenerator } from '../../../../../daemon/ids.js';
import { cryptoRandom } from '../../../../../daemon/random.js';
import { createEventNotifier, type EventNotifier } from '../../../../../daemon/store/postgres/event-notifier.js';
import { createSealer } from '../../../../../daemon/store/sealer.js';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { testPostgres } from '../../../../helpers/postgres.js';
import { PgFixture } from '../../../store/postgres/pg-fixture.js';

/**
 * Flow control in team mode: two daemons (two pools, each with its own runtime of the same Company)
 * on one database decide against the same state, so together they let through what one would.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('flow control across two daemons on PostgreSQL');
  const fx = new PgFixture(cluster);
  const daemons = fx.twoDaemons(test, 6);
  const notifiers: EventNotifier[] = [];
  const opened: OpenedRuntime[] = [];
  let companies = 0;
  test.after(async () => {
    await Promise.all(opened.map((r) => r.close()));
    await Promise.all(notifiers.map((n) => n.close()));
  });

  /** The same fresh Company opened by both daemons, on one fake clock. */
  const pair = async () => {
    const clock = new FakeClock();
    const company = { id: `cmp_flow_${process.pid}_${++companies}`, name: 'acme', owner_id: 'usr_1' };
    const sealer = createSealer(randomBytes(32));
    const open = async (pool: typeof daemons.a.pool) => {
      const notifier = createEventNotifier({ url: fx.url, pool });
      notifiers.push(notifier);
      const runtime = await openCompanyRuntime({
        company,
        dir: '',
        storage: { kind: 'postgres', pool, notifier },
        clock,
        ids: createIdGenerator(clock, cryptoRandom),
        sealer,
        random: cryptoRandom,
        schedulerTimer: createFakeTimer(),
        retryTimer: createFakeTimer(),
      });
      opened.push(runtime);
      return runtime;
    };
    return { clock, a: await open(daemons.a.pool), b: await open(daemons.b.pool) };
  };
  const rule = (flow: Record<string, unknown>) => ({
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create' as const, args: { title: 'Look at {{event.content.who}}' } }],
    ...flow,
  });
  const emit = (r: OpenedRuntime, who: string) =>
    r.services.events.emit({ type: 'loop:detected', content: { who }, source: 'manual' });

  test('throttle: a limit of 2 holds over events sent through both daemons at once', async () => {
    const { a, b } = await pair();
    await a.services.events.create(rule({ throttle: { limit: 2, period_ms: 60_000 } }));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => emit(i % 2 ? a : b, 'ada')));
    assert.is(answers.filter((x) => x.fired.length === 1).length, 2);
    assert.is(answers.filter((x) => (x.not_fired ?? []).some((n) => n.reason === 'throttled')).length, 8);
  });

  test('concurrency: one slot, taken through A, holds on B until the quest ends', async () => {
    const { a, b } = await pair();
    await b.services.events.create(rule({ concurrency: { limit: 1 } }));
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => emit(i % 2 ? a : b, 'ada')));
    const fired = burst.filter((x) => x.fired.length === 1);
    assert.is(fired.length, 1);
    assert.is(burst.filter((x) => (x.not_fired ?? []).some((n) => n.reason === 'concurrency')).length, 5);
    const quest = (fired[0]!.fired[0]!.result as { id: string }).id;
    await a.services.quests.update(quest, { status: 'done' });
    assert.is((await emit(b, 'bob')).fired.length, 1, 'free once the quest ended, whichever daemon ended it');
  });

  test('debounce: a burst through both daemons fires once, on one of them, with its last event', async () => {
    const { clock, a, b } = await pair();
    await a.services.events.create(rule({ debounce: { period_ms: 5_000 } }));
    const ids: string[] = [];
    for (const [r, who] of [
      [a, 'ada'],
      [b, 'bob'],
      [a, 'cy'],
    ] as const) {
      ids.push((await emit(r, who)).event.id);
      clock.advance(1_000);
    }
    clock.advance(5_000);
    const walked = await Promise.all([a.debounces.walk(), b.debounces.walk()]);
    assert.is(walked[0] + walked[1], 1);
    const quests = await b.services.quests.list();
    assert.equal(
      quests.map((q) => q.title),
      ['Look at cy'],
    );
    const firstTrace = await b.services.events.trace(ids[0]!);
    assert.equal(
      firstTrace!.not_fired.map((n) => n.reason),
      ['debounced'],
    );
  });

  test('chain budget: counted across both daemons, one question for the chain', async () => {
    const { a, b } = await pair();
    await a.services.events.budget.set({ max_firings: 3, max_tool_calls: null, within_ms: 60_000 });
    await b.services.events.create({
      type: 'guardrail:violation',
      tool_calls: [{ tool: 'quests.create', args: { title: 'Look' } }],
    });
    const root = await a.services.events.emit({ type: 'loop:detected', content: { who: 'root' }, source: 'manual' });
    const children = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? a : b).services.events.emit({ type: 'guardrail:violation', caused_by: root.event.id }),
      ),
    );
    assert.is(children.filter((c) => c.fired.length === 1).length, 3);
    assert.is(children.filter((c) => (c.not_fired ?? []).some((n) => n.reason === 'budget')).length, 5);
    const open = (await a.questions.list({ status: 'open' })).filter((q) => q.chain === root.event.id);
    assert.is(open.length, 1);
  });

  test('replay: the same failure replayed through both daemons at once runs once', async () => {
    const { a, b } = await pair();
    await a.services.events.create({
      type: 'loop:detected',
      tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'hi' } }],
    });
    await emit(b, 'ada');
    const [failure] = await a.services.events.failures.list();
    await b.services.agents.create({ name: 'Rita', role: 'reviewer' });
    const answers = await Promise.all(
      [a, b, a, b].map((r) => r.services.events.failures.replay({ failure_id: failure!.id })),
    );
    assert.is(answers.flatMap((x) => x.replayed).length, 1);
    assert.is(answers.flatMap((x) => x.skipped).length, 3);
    assert.ok(answers.flatMap((x) => x.replayed)[0]!.ok);
    const [listed] = await b.services.events.failures.list();
    assert.ok(listed!.replay_event_id);
  });

  test('preview over events logged through both daemons agrees with what live dispatch then does', async () => {
    const { clock, a, b } = await pair();
    const since = new Date(clock.now()).toISOString();
    for (const [i, who] of ['ada', 'bob', 'ada', 'ada', 'bob'].entries()) {
      await emit(i % 2 ? a : b, who);
      clock.advance(1000);
    }
    const throttled = rule({ throttle: { key: '{{event.content.who}}', limit: 2, period_ms: 60_000 } });
    const preview = await b.services.events.preview({ event: throttled, since });
    const logged = (await a.services.events.list({ event_type: 'loop:detected' })).events.map((e) => e.id);
    const predicted = logged.map((id) =>
      preview.would_fire.some((w) => w.event_id === id)
        ? 'fire'
        : preview.not_fired.find((n) => n.event_id === id)!.reason,
    );
    assert.equal(predicted, ['fire', 'fire', 'fire', 'throttled', 'fire']);
    await a.services.events.create(throttled);
    const live: string[] = [];
    for (const [i, who] of ['ada', 'bob', 'ada', 'ada', 'bob'].entries()) {
      const answer = await emit(i % 2 ? a : b, who);
      live.push(answer.fired.length === 1 ? 'fire' : (answer.not_fired ?? [])[0]!.reason);
    }
    assert.equal(live, predicted);
  });

  test('backfill with overlap skip: a retry pending from a firing through A makes B skip its ticks', async () => {
    const { clock, a, b } = await pair();
    const schedule = await a.services.events.create({
      type: 'schedule:0 * * * *',
      schedule_policy: { overlap: 'skip' },
      retry: { max_attempts: 3 } as never,
      tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'tick' } }],
    });
    const hour = (h: number) => new Date(clock.now() - h * 3_600_000).toISOString();
    const first = await a.services.events.backfill(schedule.id, { from: hour(6), to: hour(5) });
    assert.is(first.fired.length, 1, 'its call fails and waits for a retry');
    const second = await b.services.events.backfill(schedule.id, { from: hour(4), to: hour(2) });
    assert.equal([second.fired.length, second.skipped.map((s) => s.reason)], [0, ['overlap', 'overlap', 'overlap']]);
    const allow = await b.services.events.create({
      type: 'schedule:0 * * * *',
      tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'tick' } }],
    });
    const all = await b.services.events.backfill(allow.id, { from: hour(4), to: hour(2) });
    assert.equal([all.fired.length, all.skipped.length], [3, 0]);
  });

  test.run();
}
