import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

/** POST /api/events/{id}/backfill: past ticks of a schedule, each marked backfill, under its overlap policy. */
const open = () =>
  createRuntimeTestApp({
    clock: new FakeClock(),
    runtime: { retryTimer: createFakeTimer(), schedulerTimer: createFakeTimer() },
  });
const hourly = async (t: RuntimeTestApp, overlap: 'skip' | 'allow', tool: 'quests.create' | 'message_to') => {
  const res = await t.post('/api/events', {
    type: 'schedule:0 * * * *',
    schedule_policy: { overlap },
    retry: { max_attempts: 2, backoff: { initial_ms: 3_600_000, max_ms: 3_600_000 } },
    tool_calls: [
      tool === 'quests.create'
        ? { tool, args: { title: 'sweep {{event.content.tick}}' } }
        : { tool, args: { to: 'reviewer', text: 'x' } },
    ],
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.event.id as string;
};

test('overlap allow: every tick in the range fires, before the schedule existed too, marked backfill', async () => {
  const t = await open();
  const id = await hourly(t, 'allow', 'quests.create');
  const res = await t.post(`/api/events/${id}/backfill`, { from: '2026-01-14T09:30:00Z', to: '2026-01-14T12:00:00Z' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(
    res.body.fired.map((f: { tick: string }) => f.tick),
    ['2026-01-14T10:00:00.000Z', '2026-01-14T11:00:00.000Z', '2026-01-14T12:00:00.000Z'],
  );
  const event = await t.services.events.occurrence!(res.body.fired[0].event_id);
  assert.equal(event!.content, { tick: '2026-01-14T10:00:00.000Z', scheduled: 'schedule:0 * * * *', backfill: true });
  assert.is(event!.source, 'schedule');
  const titles = (await t.services.quests.list()).map((q) => q.title).sort();
  assert.equal(titles, [
    'sweep 2026-01-14T10:00:00.000Z',
    'sweep 2026-01-14T11:00:00.000Z',
    'sweep 2026-01-14T12:00:00.000Z',
  ]);
  await t.close();
});

test('overlap skip: a tick is skipped while the last firing still waits for a retry', async () => {
  const t = await open();
  const id = await hourly(t, 'skip', 'message_to'); // nobody has the role: fails, schedules a retry
  const res = await t.post(`/api/events/${id}/backfill`, { from: '2026-01-14T10:00:00Z', to: '2026-01-14T12:00:00Z' });
  assert.equal(
    res.body.fired.map((f: { tick: string }) => f.tick),
    ['2026-01-14T10:00:00.000Z'],
  );
  assert.equal(
    res.body.skipped.map((s: { tick: string; reason: string }) => [s.tick, s.reason]),
    [
      ['2026-01-14T11:00:00.000Z', 'overlap'],
      ['2026-01-14T12:00:00.000Z', 'overlap'],
    ],
  );
  const skipped = await t.services.events.trace(res.body.skipped[0].event_id);
  assert.equal(
    skipped!.not_fired.map((n) => n.reason),
    ['overlap'],
  );
  assert.is((skipped!.event.content as { backfill: boolean }).backfill, true);
  await t.close();
});

test('bad backfills are clear 400s or a 404', async () => {
  const t = await open();
  const id = await hourly(t, 'allow', 'quests.create');
  const other = (await t.post('/api/events', { type: 'loop:detected', tool_calls: [] })).body.event.id;
  for (const [url, body, code] of [
    [`/api/events/${id}/backfill`, { from: 'yesterday', to: '2026-01-14T12:00:00Z' }, 400],
    [`/api/events/${id}/backfill`, { from: '2026-01-14T12:00:00Z', to: '2026-01-14T10:00:00Z' }, 400],
    [`/api/events/${id}/backfill`, { from: '2026-01-14T12:00:00Z', to: '2026-01-16T10:00:00Z' }, 400],
    [`/api/events/${id}/backfill`, { from: '2025-01-01T00:00:00Z', to: '2026-01-14T10:00:00Z' }, 400],
    [`/api/events/${id}/backfill`, { from: '2026-01-14T10:00:00Z', to: '2026-01-14T11:00:00Z', x: 1 }, 400],
    [`/api/events/${other}/backfill`, { from: '2026-01-14T10:00:00Z', to: '2026-01-14T11:00:00Z' }, 400],
    ['/api/events/cev_nope/backfill', { from: '2026-01-14T10:00:00Z', to: '2026-01-14T11:00:00Z' }, 404],
  ] as const) {
    const res = await t.post(url, body);
    assert.is(res.status, code, `${url} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
  }
  assert.equal(await t.services.quests.list(), []);
  await t.close();
});

test.run();
