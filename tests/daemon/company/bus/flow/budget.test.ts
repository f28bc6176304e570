import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod';
import type { ToolDefinition } from '../../../../../daemon/company/bus/tools.js';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../../helpers/runtime-app.js';

/**
 * The chain budget: a wide loop (each event fires a call that emits the next) is stopped when its
 * chain crosses the budget, loop:detected names the chain, and the owner's answer continues or ends it.
 */
// A tool that emits the next event of the chain: two rules on one pattern make the loop wide.
const relay: ToolDefinition = {
  name: 'relay',
  description: 'emits guardrail:violation, caused by the firing event',
  args: z.object({}),
  run: (_args, { emit, event }) => emit({ type: 'guardrail:violation', caused_by: event.id }),
};
const open = (clock = new FakeClock()) =>
  createRuntimeTestApp({ clock, runtime: { retryTimer: createFakeTimer(), tools: [relay] } });

const loop = async (t: RuntimeTestApp) => {
  for (let i = 0; i < 2; i++)
    assert.is(
      (await t.post('/api/events', { type: 'guardrail:violation', tool_calls: [{ tool: 'relay', args: {} }] })).status,
      201,
    );
  return (await t.post('/api/events/trigger', { type: 'guardrail:violation' })).body.event.id as string;
};
const chainOf = async (t: RuntimeTestApp, root: string) =>
  (await t.services.events.list({ limit: 1000 })).events.filter((e) => e.correlation_id === root);
const budgetStops = async (t: RuntimeTestApp, root: string) => {
  const stopped: string[] = [];
  for (const e of await chainOf(t, root))
    if ((await t.services.events.trace(e.id))!.not_fired.some((n) => n.reason === 'budget')) stopped.push(e.id);
  return stopped;
};

test('GET|PUT /api/events/budget: strict, clear 400s, null caps turn it off', async () => {
  const t = await open();
  assert.equal((await t.get('/api/events/budget')).body, { budget: null });
  for (const [body, message] of [
    [{ max_firings: 0, max_tool_calls: null, within_ms: 60_000 }, /max_firings: must be at least 1/],
    [{ max_firings: 5, max_tool_calls: null, within_ms: 10 }, /within_ms: must be at least 1000/],
    [{ max_firings: 5, max_tool_calls: null, within_ms: 60_000, per: 'agent' }, /per/],
    [{ max_firings: 5 }, /max_tool_calls|within_ms/],
  ] as const) {
    const res = await t.request({ method: 'PUT', url: '/api/events/budget', payload: body as object });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.match(res.body.error, message);
  }
  const set = await t.request({
    method: 'PUT',
    url: '/api/events/budget',
    payload: { max_firings: 6, max_tool_calls: 10, within_ms: 60_000 },
  });
  assert.is(set.status, 200);
  assert.equal((await t.get('/api/events/budget')).body.budget, {
    max_firings: 6,
    max_tool_calls: 10,
    within_ms: 60_000,
  });
  const off = await t.request({
    method: 'PUT',
    url: '/api/events/budget',
    payload: { max_firings: null, max_tool_calls: null, within_ms: 60_000 },
  });
  assert.is(off.body.budget, null);
  assert.is((await t.get('/api/events/budget')).body.budget, null);
  await t.close();
});

test('a wide loop stops at the budget: not_fired budget, loop:detected with the chain, a question to the owner', async () => {
  const t = await open();
  await t.request({
    method: 'PUT',
    url: '/api/events/budget',
    payload: { max_firings: 5, max_tool_calls: null, within_ms: 60_000 },
  });
  const root = await loop(t);
  const fired = (await t.services.events.list({ limit: 1000 })).events.filter((e) => e.type === 'guardrail:violation');
  // 5 firings, each emitting one event, and the root: the sixth firing was refused.
  assert.is(fired.length, 6);
  assert.ok((await budgetStops(t, root)).length >= 1);
  const [loopEvent] = (await t.services.events.list({ event_type: 'loop:detected' })).events;
  assert.ok(loopEvent, 'loop:detected emitted');
  assert.is((loopEvent!.content as { chain: string }).chain, root);
  assert.is((loopEvent!.content as { kind: string }).kind, 'budget');
  const questions = (await t.get('/api/questions?status=open')).body.questions;
  assert.is(questions.length, 1);
  assert.equal(questions[0].options, ['continue', 'end']);
  assert.match(questions[0].question, new RegExp(`chain ${root} crossed`));
  assert.is(questions[0].chain, root);
  // Later events of the stopped chain fire nothing either, and ask nothing again.
  const last = fired.at(-1)!;
  const again = await t.services.events.emit({ type: 'guardrail:violation', caused_by: last.id });
  assert.equal(again.fired, []);
  assert.equal(
    again.not_fired?.map((n) => n.reason),
    ['budget', 'budget'],
  );
  assert.is((await t.get('/api/questions?status=open')).body.questions.length, 1);
  await t.close();
});

test('answering end leaves the chain stopped; continue gives it a fresh budget and runs what was stopped', async () => {
  const t = await open();
  await t.request({
    method: 'PUT',
    url: '/api/events/budget',
    payload: { max_firings: null, max_tool_calls: 3, within_ms: 60_000 },
  });
  // Two chains, each stopped at three tool calls.
  const first = await loop(t);
  const second = (await t.post('/api/events/trigger', { type: 'guardrail:violation' })).body.event.id as string;
  const count = async (root: string) => (await chainOf(t, root)).length;
  assert.equal([await count(first), await count(second)], [4, 4]);
  const questions = (await t.get('/api/questions?status=open')).body.questions as Array<{ id: string; chain: string }>;
  const q = (root: string) => questions.find((x) => x.chain === root)!.id;
  const ended = await t.post(`/api/questions/${q(first)}/answer`, { answer: 'end' });
  assert.is(ended.status, 200);
  assert.is(await count(first), 4, 'ended: nothing more runs');
  const bad = await t.post(`/api/questions/${q(second)}/answer`, { answer: 'maybe' });
  assert.is(bad.status, 400);
  assert.is((await t.post(`/api/questions/${q(second)}/answer`, { answer: 'continue' })).status, 200);
  // The stopped event ran its rules with a fresh budget: three more tool calls, then stopped again.
  assert.is(await count(second), 7);
  assert.is(
    (await t.get('/api/questions?status=open')).body.questions.length,
    1,
    'a new question for the new crossing',
  );
  await t.close();
});

test.run();
