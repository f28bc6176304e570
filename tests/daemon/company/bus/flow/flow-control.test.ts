import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../../helpers/runtime-app.js';

/** Debounce, throttle and concurrency of a configured event through the HTTP API, on the fake clock. */
const open = (clock = new FakeClock()) => createRuntimeTestApp({ clock, runtime: { retryTimer: createFakeTimer() } });

const rule = (flow: Record<string, unknown>, title = 'Look at {{event.content.who}}') => ({
  type: 'loop:detected',
  tool_calls: [{ tool: 'quests.create', args: { title } }],
  ...flow,
});
const trigger = async (t: RuntimeTestApp, who: string) => {
  const res = await t.post('/api/events/trigger', { type: 'loop:detected', content: { who } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body as { event: { id: string }; fired: unknown[]; not_fired: Array<{ reason: string }> };
};
const reasons = (answer: { not_fired: Array<{ reason: string }> }) => answer.not_fired.map((n) => n.reason);
const notFiredOf = async (t: RuntimeTestApp, id: string) =>
  (await t.get(`/api/events/trace?event_id=${id}`)).body.not_fired.map((n: { reason: string }) => n.reason);

test('bad flow control is a 400 invalid_flow_control naming the field, on create and on update', async () => {
  const t = await open();
  for (const [flow, message] of [
    [{ throttle: { limit: 0, period_ms: 1000 } }, /throttle\.limit: must be at least 1/],
    [{ throttle: { limit: 2 } }, /throttle\.period_ms/],
    [{ throttle: { limit: 2, period_ms: 1.5 } }, /throttle\.period_ms: period_ms must be a whole number/],
    [
      { throttle: { limit: 2, period_ms: 1000, per: 'agent' } },
      /throttle: unknown field 'per'; use key, limit, period_ms/,
    ],
    [{ throttle: 5 }, /throttle: must be an object, e\.g\. \{"limit":5,"period_ms":3600000\}/],
    [{ concurrency: { limit: 1, key: '{{event.agnt_id}}' } }, /concurrency\.key: .*unknown field 'agnt_id'/],
    [{ concurrency: { limit: 1, key: 'agent' } }, /concurrency\.key: 'agent' names no field of the event/],
    [{ debounce: { period_ms: 5000, max_wait_ms: 1000 } }, /debounce\.max_wait_ms: 1000 is below period_ms 5000/],
    [{ debounce: { period_ms: 0 } }, /debounce\.period_ms: must be at least 1/],
  ] as const) {
    const res = await t.post('/api/events', rule(flow));
    assert.is(res.status, 400, JSON.stringify(flow));
    assert.is(res.body.code, 'invalid_flow_control');
    assert.match(res.body.error, message);
  }
  const ok = await t.post('/api/events', rule({ throttle: { limit: 2, period_ms: 60_000 } }));
  assert.is(ok.status, 201);
  assert.equal(ok.body.event.throttle, { limit: 2, period_ms: 60_000 });
  const bad = await t.patch(`/api/events/${ok.body.event.id}`, { concurrency: { limit: 'one' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'invalid_flow_control');
  const changed = await t.patch(`/api/events/${ok.body.event.id}`, { throttle: null, concurrency: { limit: 1 } });
  assert.is(changed.body.event.throttle, null);
  assert.equal(changed.body.event.concurrency, { limit: 1 });
  await t.close();
});

test('throttle: at most `limit` firings per period in each key, the rest not fired as throttled', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', rule({ throttle: { key: '{{event.content.who}}', limit: 2, period_ms: 60_000 } }));
  const ada = [await trigger(t, 'ada'), await trigger(t, 'ada'), await trigger(t, 'ada')];
  assert.equal(
    ada.map((a) => a.fired.length),
    [1, 1, 0],
  );
  assert.equal(reasons(ada[2]!), ['throttled']);
  assert.equal(await notFiredOf(t, ada[2]!.event.id), ['throttled']);
  assert.is((await trigger(t, 'bob')).fired.length, 1, 'another key has a bucket of its own');
  clock.advance(60_000);
  assert.is((await trigger(t, 'ada')).fired.length, 1, 'a period later the bucket has room again');
  await t.close();
});

test('concurrency: a firing whose quest is still open holds its slot; once it ends the next fires', async () => {
  const t = await open();
  await t.post('/api/events', rule({ concurrency: { limit: 1 } }));
  const first = await trigger(t, 'ada');
  assert.is(first.fired.length, 1);
  const quest = (first.fired[0] as { result: { id: string } }).result.id;
  const second = await trigger(t, 'bob');
  assert.equal([second.fired.length, reasons(second)], [0, ['concurrency']]);
  assert.equal(await notFiredOf(t, second.event.id), ['concurrency']);
  assert.is((await t.patch(`/api/quests/${quest}`, { status: 'done' })).status, 200);
  assert.is((await trigger(t, 'cy')).fired.length, 1, 'the slot is free once the quest ended');
  await t.close();
});

test('concurrency with a key, and a firing with no open work frees its slot at once', async () => {
  const t = await open();
  await t.post('/api/events', rule({ concurrency: { key: '{{event.content.who}}', limit: 1 } }));
  assert.is((await trigger(t, 'ada')).fired.length, 1);
  assert.equal(reasons(await trigger(t, 'ada')), ['concurrency']);
  assert.is((await trigger(t, 'bob')).fired.length, 1, 'another key');
  // A message leaves no open work behind: the rule may fire again right away.
  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  const msg = await t.post('/api/events', {
    type: 'guardrail:violation',
    concurrency: { limit: 1 },
    tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'look' } }],
  });
  assert.is(msg.status, 201);
  for (let i = 0; i < 3; i++) {
    const res = await t.post('/api/events/trigger', { type: 'guardrail:violation' });
    assert.is(res.body.fired.length, 1);
    assert.ok(res.body.fired[0].ok);
  }
  await t.close();
});

test('throttle and concurrency together: a firing refused for concurrency does not use the allowance', async () => {
  const t = await open();
  await t.post('/api/events', rule({ concurrency: { limit: 1 }, throttle: { limit: 2, period_ms: 60_000 } }));
  const first = await trigger(t, 'ada');
  assert.equal(reasons(await trigger(t, 'ada')), ['concurrency']);
  assert.equal(reasons(await trigger(t, 'ada')), ['concurrency']);
  await t.patch(`/api/quests/${(first.fired[0] as { result: { id: string } }).result.id}`, { status: 'failed' });
  const second = await trigger(t, 'ada');
  assert.is(second.fired.length, 1, 'the second of two allowed firings');
  await t.patch(`/api/quests/${(second.fired[0] as { result: { id: string } }).result.id}`, { status: 'done' });
  assert.equal(reasons(await trigger(t, 'ada')), ['throttled']);
  await t.close();
});

test('debounce: fires once with the last event after the quiet; the swallowed events are debounced', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', rule({ debounce: { period_ms: 10_000 } }, 'Summarise after {{event.content.who}}'));
  const burst: string[] = [];
  for (const who of ['ada', 'bob', 'cy']) {
    const answer = await trigger(t, who);
    assert.equal([answer.fired.length, answer.not_fired.length], [0, 0], 'nothing fires while the burst goes on');
    burst.push(answer.event.id);
    clock.advance(4_000);
  }
  assert.is(await t.runtime.debounces.walk(), 0, 'not quiet long enough yet');
  clock.advance(6_000);
  assert.is(await t.runtime.debounces.walk(), 1);
  assert.equal(await notFiredOf(t, burst[0]!), ['debounced']);
  assert.equal(await notFiredOf(t, burst[1]!), ['debounced']);
  const last = (await t.get(`/api/events/trace?event_id=${burst[2]}`)).body;
  assert.equal(last.not_fired, []);
  assert.equal(
    last.fired.map((f: { result: { title: string } }) => f.result.title),
    ['Summarise after cy'],
  );
  assert.is(await t.runtime.debounces.walk(), 0, 'fired once');
  await t.close();
});

test('debounce: max_wait_ms fires a burst that never goes quiet; keys debounce apart', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post(
    '/api/events',
    rule({ debounce: { key: '{{event.content.who}}', period_ms: 5_000, max_wait_ms: 12_000 } }),
  );
  let fired = 0;
  for (let i = 0; i < 8; i++) {
    await trigger(t, 'ada');
    if (i === 0) await trigger(t, 'bob');
    clock.advance(3_000);
    fired += await t.runtime.debounces.walk();
  }
  // bob: once, 5 s after his one event; ada: once at 12 s (her burst never had 5 s of quiet), then again.
  assert.is(fired, 3);
  const titles = (await t.services.quests.list()).map((q) => q.title).sort();
  assert.equal(titles, ['Look at ada', 'Look at ada', 'Look at bob']);
  await t.close();
});

test('a paused or deleted rule fires nothing when its debounce comes due', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  const paused = (await t.post('/api/events', rule({ debounce: { period_ms: 1_000 } }))).body.event.id;
  const first = await trigger(t, 'ada');
  await t.post(`/api/events/${paused}/disable`);
  clock.advance(1_000);
  assert.is(await t.runtime.debounces.walk(), 1);
  assert.equal(await notFiredOf(t, first.event.id), ['paused']);
  await t.post(`/api/events/${paused}/enable`);
  await trigger(t, 'bob');
  assert.is((await t.del(`/api/events/${paused}`)).status, 200);
  clock.advance(1_000);
  assert.is(await t.runtime.debounces.walk(), 0);
  assert.equal(await t.services.quests.list(), []);
  await t.close();
});
test.run();
