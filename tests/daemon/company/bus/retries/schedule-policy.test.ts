import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../../helpers/runtime-app.js';

/** Through the HTTP API: each schedule's own catch-up, overlap and bounds. */
const open = (clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'))) =>
  createRuntimeTestApp({ clock, runtime: { schedulerTimer: createFakeTimer(), retryTimer: createFakeTimer() } });
const schedule = (t: RuntimeTestApp, type: string, schedule_policy?: unknown, more: object = {}) =>
  t.post('/api/events', {
    type,
    schedule_policy,
    tool_calls: [{ tool: 'quests.create', args: { title: 'tick {{event.content.tick}}' } }],
    ...more,
  });
const ticksOf = (report: { fired: Array<{ id: string; tick: string }> }, id: string) =>
  report.fired.filter((f) => f.id === id).map((f) => f.tick.slice(11, 16));

test('bad policies are a 400 invalid_schedule saying why; a policy on another pattern is refused', async () => {
  const t = await open();
  for (const [policy, message] of [
    [{ catch_up: 'some' }, /schedule_policy\.catch_up/],
    [{ overlap: 'queue' }, /schedule_policy\.overlap/],
    [{ max_catch_up: 0 }, /schedule_policy\.max_catch_up: must be at least 1/],
    [{ max_catch_up: 5000 }, /must be at most 1000/],
    [{ start_at: 'tomorrow' }, /schedule_policy\.start_at: must be an ISO 8601 time/],
    [{ start_at: '2026-02-01T00:00:00Z', end_at: '2026-01-01T00:00:00Z' }, /end_at: .* is not after start_at/],
    [{ every: 5 }, /schedule_policy: .*every/],
  ] as const) {
    const res = await schedule(t, 'schedule:@hourly', policy);
    assert.is(res.status, 400, JSON.stringify(policy));
    assert.is(res.body.code, 'invalid_schedule');
    assert.match(res.body.error, message);
  }
  const other = await schedule(t, 'session:stopped', { overlap: 'skip' });
  assert.is(other.status, 400);
  assert.match(other.body.error, /schedule_policy applies only to 'schedule:' patterns/);
  const id = (await schedule(t, 'schedule:@hourly')).body.event.id;
  const bad = await t.patch(`/api/events/${id}`, { schedule_policy: { catch_up: 'none' } });
  assert.is(bad.body.code, 'invalid_schedule');
  await t.close();
});

test('the list shows each policy whole: its own settings, else the daemon default; next_runs within bounds', async () => {
  const t = await open();
  await schedule(t, 'schedule:@hourly');
  await schedule(t, 'schedule:0 * * * *', {
    catch_up: 'all',
    max_catch_up: 3,
    overlap: 'skip',
    start_at: '2026-01-15T14:00:00+00:00',
    end_at: '2026-01-15T16:30:00Z',
  });
  const [plain, own] = (await t.get('/api/events?configured=true&scheduled=true')).body.events;
  assert.equal(plain.schedule_policy, {
    catch_up: 'latest',
    max_catch_up: 100,
    overlap: 'allow',
    start_at: null,
    end_at: null,
  });
  assert.equal(own.schedule_policy, {
    catch_up: 'all',
    max_catch_up: 3,
    overlap: 'skip',
    start_at: '2026-01-15T14:00:00.000Z',
    end_at: '2026-01-15T16:30:00.000Z',
  });
  assert.equal(own.next_runs, ['2026-01-15T14:00:00.000Z', '2026-01-15T15:00:00.000Z', '2026-01-15T16:00:00.000Z']);
  // PATCH changes it; null goes back to the defaults.
  const cleared = await t.patch(`/api/events/${own.id}`, { schedule_policy: null });
  assert.is(cleared.body.event.schedule_policy.catch_up, 'latest');
  assert.is(cleared.body.event.next_runs.length, 5);
  await t.close();
});

test('catch-up per schedule: after five missed hours, all ≤3, latest and skip each do their own', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const t = await open(clock);
  const all = (await schedule(t, 'schedule:0 * * * *', { catch_up: 'all', max_catch_up: 3 })).body.event.id;
  const latest = (await schedule(t, 'schedule:0 * * * *')).body.event.id;
  const skip = (await schedule(t, 'schedule:0 * * * *', { catch_up: 'skip' })).body.event.id;
  await t.runtime.scheduler.walk();
  clock.set('2026-01-15T17:30:00Z'); // the daemon was down from 12:00 to 17:30
  const report = await t.runtime.scheduler.walk();
  assert.equal(ticksOf(report, all), ['15:00', '16:00', '17:00']);
  assert.equal(ticksOf(report, latest), ['17:00']);
  assert.equal(ticksOf(report, skip), []);
  clock.set('2026-01-15T18:00:30Z'); // on time again: every policy fires it
  const next = await t.runtime.scheduler.walk();
  for (const id of [all, latest, skip]) assert.equal(ticksOf(next, id), ['18:00']);
  await t.close();
});

test('start_at and end_at bound the ticks that fire', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const t = await open(clock);
  const id = (
    await schedule(t, 'schedule:* * * * *', { start_at: '2026-01-15T12:03:00Z', end_at: '2026-01-15T12:05:00Z' })
  ).body.event.id;
  const fired: string[] = [];
  for (let m = 1; m <= 8; m++) {
    clock.set(`2026-01-15T12:0${m}:00.250Z`);
    fired.push(...ticksOf(await t.runtime.scheduler.walk(), id));
  }
  assert.equal(fired, ['12:03', '12:04', '12:05']);
  const [row] = (await t.get('/api/events?scheduled=true&configured=true')).body.events;
  assert.equal(row.next_runs, [], 'ended: no next run');
  await t.close();
});

test('overlap skip: a tick is skipped while the last firing still waits for a retry; allow fires it', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const t = await open(clock);
  const failing = {
    retry: { max_attempts: 3, backoff: { initial_ms: 90_000 } },
    tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'tick' } }],
  };
  const skip = (await schedule(t, 'schedule:* * * * *', { overlap: 'skip' }, failing)).body.event.id;
  const allow = (await schedule(t, 'schedule:* * * * *', { overlap: 'allow' }, failing)).body.event.id;
  clock.set('2026-01-15T12:01:00.250Z');
  let report = await t.runtime.scheduler.walk();
  assert.equal([ticksOf(report, skip), ticksOf(report, allow)], [['12:01'], ['12:01']]);
  clock.set('2026-01-15T12:02:00.250Z'); // the 12:01 calls wait for their retry at 12:02:30
  report = await t.runtime.scheduler.walk();
  assert.equal(ticksOf(report, skip), []);
  const [skipped] = report.skipped;
  assert.equal(report.skipped, [
    { id: skip, tick: '2026-01-15T12:02:00.000Z', reason: 'overlap', event_id: skipped?.event_id },
  ]);
  // The skipped tick is an occurrence of its own, whose trace says why nothing ran.
  const trace = (await t.get(`/api/events/trace?event_id=${skipped?.event_id}`)).body;
  assert.is(trace.event.source, 'schedule');
  assert.equal(trace.event.content, {
    tick: '2026-01-15T12:02:00.000Z',
    scheduled: 'schedule:* * * * *',
    skipped: 'overlap',
  });
  assert.equal(trace.fired, []);
  assert.equal(trace.not_fired, [{ configured_event_id: skip, reason: 'overlap' }]);
  assert.equal(ticksOf(report, allow), ['12:02']);
  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  clock.set('2026-01-15T12:02:30.250Z');
  await t.runtime.retries.walk(); // the 12:01 retry of `skip` now works: its firing is settled
  clock.set('2026-01-15T12:03:00.250Z');
  report = await t.runtime.scheduler.walk();
  assert.equal(ticksOf(report, skip), ['12:03']);
  await t.close();
});

test.run();
