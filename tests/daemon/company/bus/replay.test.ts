import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

/** Failed calls listed, replayed once each under a `replay` event, singly and in bulk. */
const open = (clock = new FakeClock()) => createRuntimeTestApp({ clock, runtime: { retryTimer: createFakeTimer() } });
// message_to a role nobody holds fails when it runs; it works once such an agent exists.
const rule = (extra: Record<string, unknown> = {}) => ({
  type: 'webhook:deploy',
  tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'Deploy {{event.content.ref}} is out' } }],
  ...extra,
});
const trigger = async (t: RuntimeTestApp, ref: string) =>
  (await t.post('/api/events/trigger', { type: 'loop:detected', content: { ref } })).body.event.id as string;

const setup = async (clock = new FakeClock()) => {
  const t = await open(clock);
  const cfg = (await t.post('/api/events', { ...rule(), type: 'loop:detected' })).body.event.id as string;
  return { t, cfg, clock };
};

test('a call that failed is listed with its event, rule, tool, error and attempts', async () => {
  const { t, cfg } = await setup();
  const evt = await trigger(t, 'main');
  const { failures } = (await t.get('/api/events/failures')).body;
  assert.is(failures.length, 1);
  assert.equal(
    { ...failures[0], error: undefined },
    {
      id: `${evt}|${cfg}|0`,
      event_id: evt,
      configured_event_id: cfg,
      tool: 'message_to',
      error: undefined,
      attempts: 1,
      failed_at: '2026-01-15T12:00:00.000Z',
      replayed_at: null,
      replay_event_id: null,
    },
  );
  assert.match(failures[0].error, /reviewer/);
  assert.is((await t.get('/api/events/failures?since=2026-01-15T12:00:01Z')).body.failures.length, 0);
  assert.is((await t.get('/api/events/failures?since=yesterday')).status, 400);
  await t.close();
});

test('replay runs the call again with the original values, under a replay event; a second replay does nothing', async () => {
  const { t } = await setup();
  const evt = await trigger(t, 'v1.2');
  const [failure] = (await t.get('/api/events/failures')).body.failures;
  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  const first = await t.post('/api/events/replay', { failure_id: failure.id });
  assert.is(first.status, 200);
  assert.is(first.body.replayed.length, 1);
  assert.ok(first.body.replayed[0].ok);
  const replayId = first.body.replayed[0].event_id;
  const again = await t.post('/api/events/replay', { failure_id: failure.id });
  assert.equal(again.body, {
    ok: true,
    replayed: [],
    skipped: [{ failure_id: failure.id, reason: 'already_replayed', replay_event_id: replayId }],
  });
  // Under the original in trace, with source replay, the message written from the original's content.
  const tree = (await t.get(`/api/events/trace?event_id=${evt}`)).body;
  const child = tree.children.find((c: { event: { id: string } }) => c.event.id === replayId);
  assert.is(child.event.source, 'replay');
  assert.ok(child.fired[0].ok);
  const sessions = await t.services.sessions.list();
  const transcript = await t.services.sessions.get(sessions[0]!.id);
  assert.ok(JSON.stringify(transcript).includes('Deploy v1.2 is out'));
  const [listed] = (await t.get('/api/events/failures')).body.failures;
  assert.is(listed.replay_event_id, replayId);
  await t.close();
});

test('bulk replay by rule and time range; a replay that fails again is a failure of its own', async () => {
  const clock = new FakeClock();
  const { t, cfg } = await setup(clock);
  await trigger(t, 'a');
  clock.advance(60_000);
  await trigger(t, 'b');
  clock.advance(60_000);
  await trigger(t, 'c');
  const bulk = await t.post('/api/events/replay', {
    configured_event_id: cfg,
    since: '2026-01-15T12:01:00Z',
    until: '2026-01-15T12:02:00Z',
  });
  assert.is(bulk.body.replayed.length, 2, 'b and c');
  assert.ok(
    bulk.body.replayed.every((r: { ok: boolean }) => !r.ok),
    'still nobody has the role',
  );
  const failures = (await t.get(`/api/events/failures?configured_event_id=${cfg}`)).body.failures;
  assert.is(failures.length, 5, 'three originals and two failed replays');
  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  const rest = await t.post('/api/events/replay', { configured_event_id: cfg });
  assert.is(rest.body.replayed.length, 3, 'a and the two failed replays; b and c were taken');
  assert.ok(rest.body.replayed.every((r: { ok: boolean }) => r.ok));
  assert.is((await t.post('/api/events/replay', { configured_event_id: cfg })).body.replayed.length, 0);
  for (const bad of [{}, { failure_id: '' }, { configured_event_id: cfg, since: 'x' }, { failure_id: 'f', extra: 1 }])
    assert.is((await t.post('/api/events/replay', bad)).status, 400, JSON.stringify(bad));
  assert.is((await t.post('/api/events/replay', { failure_id: 'nope' })).status, 404);
  await t.close();
});

test('a retried call is a failure only once out of attempts', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', {
    ...rule({ retry: { max_attempts: 2, backoff: { initial_ms: 1000, max_ms: 1000 } } }),
    type: 'loop:detected',
  });
  await trigger(t, 'x');
  assert.is((await t.get('/api/events/failures')).body.failures.length, 0, 'a retry is pending');
  clock.advance(1000);
  await t.runtime.retries.walk();
  const { failures } = (await t.get('/api/events/failures')).body;
  assert.is(failures.length, 1);
  assert.is(failures[0].attempts, 2);
  await t.close();
});

test.run();
