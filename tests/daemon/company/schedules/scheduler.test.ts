import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createScheduler, type SchedulerTimer } from '../../../../daemon/company/schedules/scheduler.js';
import { createMemoryRuntimeStores, openJournalRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { createFakeEvents } from '../../../helpers/fake-events.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const _MIN = 60_000;
const call = (title: string) => [{ tool: 'quests.create', args: { title } }];

async function setup(start = '2026-01-15T12:00:10Z', policy?: Parameters<typeof createScheduler>[0]['policy']) {
  const clock = new FakeClock(Date.parse(start));
  const events = createFakeEvents(clock);
  const ticks = createMemoryRuntimeStores().ticks;
  const scheduler = createScheduler({ clock, events: events.service, ticks, policy });
  return { clock, events, ticks, scheduler };
}

test('a due tick fires once with its tick time and pattern; a second walk in the same minute fires nothing', async () => {
  const { clock, events, scheduler } = await setup();
  const cfg = await events.service.create({ type: 'schedule:*/5 * * * *', tool_calls: call('x') });
  assert.equal((await scheduler.walk()).fired, [], 'nothing due between creation and now');
  clock.set('2026-01-15T12:05:00.250Z');
  const report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => [f.id, f.tick]),
    [[cfg.id, '2026-01-15T12:05:00.000Z']],
  );
  assert.equal(events.fires, [
    { id: cfg.id, content: { tick: '2026-01-15T12:05:00.000Z', scheduled: 'schedule:*/5 * * * *' } },
  ]);
  clock.advance(20_000);
  assert.equal((await scheduler.walk()).fired, []);
  clock.set('2026-01-15T12:06:00.250Z');
  assert.equal((await scheduler.walk()).fired, [], 'not due at 12:06');
  clock.set('2026-01-15T12:10:00.250Z');
  assert.equal((await scheduler.walk()).fired.length, 1);
  assert.is(events.fires.length, 2);
});

test('concurrent walks never fire the same tick twice', async () => {
  const { clock, events, scheduler } = await setup();
  await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('x') });
  clock.set('2026-01-15T12:01:00.250Z');
  const reports = await Promise.all([scheduler.walk(), scheduler.walk(), scheduler.walk()]);
  assert.is(
    reports.reduce((n, r) => n + r.fired.length, 0),
    1,
  );
  assert.is(events.fires.length, 1);
});

test('a restart (new scheduler, same journal) does not fire a claimed tick again', async () => {
  const dir = tempDir('svc-ticks');
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const events = createFakeEvents(clock);
  await events.service.create({ type: 'schedule:@hourly', tool_calls: call('x') });
  clock.set('2026-01-15T13:00:00.250Z');
  const first = createScheduler({ clock, events: events.service, ticks: (await openJournalRuntimeStores(dir)).ticks });
  assert.is((await first.walk()).fired.length, 1);
  clock.advance(30_000);
  const second = createScheduler({ clock, events: events.service, ticks: (await openJournalRuntimeStores(dir)).ticks });
  assert.equal((await second.walk()).fired, []);
  assert.is(events.fires.length, 1);
});

test('missed ticks, policy latest (default): the latest one fires once, marked late', async () => {
  const { clock, events, scheduler } = await setup();
  const cfg = await events.service.create({ type: 'schedule:*/10 * * * *', tool_calls: call('x') });
  await scheduler.walk();
  clock.set('2026-01-15T15:03:00Z'); // down for three hours
  const report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => f.tick),
    ['2026-01-15T15:00:00.000Z'],
  );
  assert.equal(events.fires[0], {
    id: cfg.id,
    content: { tick: '2026-01-15T15:00:00.000Z', scheduled: 'schedule:*/10 * * * *', late: true },
  });
});

test('missed ticks, policy skip: nothing fires for a late tick, an on-time one does', async () => {
  const { clock, events, scheduler } = await setup(undefined, { missed: 'skip' });
  const cfg = await events.service.create({ type: 'schedule:*/10 * * * *', tool_calls: call('x') });
  clock.set('2026-01-15T15:03:00Z');
  const report = await scheduler.walk();
  assert.equal(report.fired, []);
  assert.equal(report.dropped, [{ id: cfg.id, count: 1 }]);
  clock.set('2026-01-15T15:10:00.250Z');
  assert.equal(
    (await scheduler.walk()).fired.map((f) => f.tick),
    ['2026-01-15T15:10:00.000Z'],
  );
});

test('missed ticks, policy all: every missed tick in order, capped to the most recent ones', async () => {
  const { clock, events, scheduler } = await setup(undefined, { missed: 'all', maxCatchUp: 5 });
  const cfg = await events.service.create({ type: 'schedule:*/10 * * * *', tool_calls: call('x') });
  clock.set('2026-01-15T12:35:00Z');
  let report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => f.tick.slice(11, 16)),
    ['12:10', '12:20', '12:30'],
  );
  clock.set('2026-01-15T14:05:00Z'); // 12:40 … 14:00 = 9 missed ticks, cap 5
  report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => f.tick.slice(11, 16)),
    ['13:20', '13:30', '13:40', '13:50', '14:00'],
  );
  assert.equal(report.dropped, [{ id: cfg.id, count: 4 }]);
  assert.is(events.fires.length, 8);
});

test('a new schedule never fires for ticks before its creation', async () => {
  const { events, scheduler } = await setup('2026-01-15T12:07:00Z');
  await events.service.create({ type: 'schedule:*/5 * * * *', tool_calls: call('x') });
  assert.equal((await scheduler.walk()).fired, [], 'the 12:05 tick was before creation');
});

test('paused and armed schedules never fire; re-enabled ones fire only for ticks after enabling', async () => {
  const { clock, events, scheduler } = await setup();
  const paused = await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('p'), enabled: false });
  const cfg = await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('x') });
  clock.set('2026-01-15T12:01:00.250Z');
  assert.equal(
    (await scheduler.walk()).fired.map((f) => f.id),
    [cfg.id],
  );
  await events.service.setEnabled(cfg.id, false);
  for (let i = 2; i <= 40; i++) {
    clock.set(`2026-01-15T12:${String(i).padStart(2, '0')}:00.250Z`);
    assert.equal((await scheduler.walk()).fired, []);
  }
  clock.set('2026-01-15T12:40:30Z');
  await events.service.setEnabled(cfg.id, true);
  clock.set('2026-01-15T12:41:00.250Z');
  const report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => f.tick),
    ['2026-01-15T12:41:00.000Z'],
    'no catch-up of the paused ticks',
  );
  assert.not.ok(events.fires.some((f) => f.id === paused.id));
});

test('a schedule enabled while its cursor was paused before a restart does not catch up the pause', async () => {
  const dir = tempDir('svc-ticks');
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const events = createFakeEvents(clock);
  const cfg = await events.service.create({ type: 'schedule:*/5 * * * *', tool_calls: call('x'), enabled: false });
  await createScheduler({ clock, events: events.service, ticks: (await openJournalRuntimeStores(dir)).ticks }).walk();
  clock.set('2026-01-16T08:00:10Z');
  const after = createScheduler({ clock, events: events.service, ticks: (await openJournalRuntimeStores(dir)).ticks });
  await after.walk(); // still paused at the first walk after the restart
  await events.service.setEnabled(cfg.id, true);
  clock.set('2026-01-16T08:05:00.250Z');
  assert.equal(
    (await after.walk()).fired.map((f) => f.tick),
    ['2026-01-16T08:05:00.000Z'],
  );
});

test('a failing fire is reported and does not stop the others; the tick stays claimed', async () => {
  const { clock, events, scheduler } = await setup();
  const bad = await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('bad') });
  const good = await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('good') });
  events.failFire(bad.id);
  clock.set('2026-01-15T12:01:00.250Z');
  const report = await scheduler.walk();
  assert.equal(
    report.fired.map((f) => f.id),
    [good.id],
  );
  assert.equal(
    report.failed.map((f) => f.id),
    [bad.id],
  );
  assert.match(report.failed[0]!.error, 'failed');
  assert.equal((await scheduler.walk()).failed, [], 'not retried in the same minute');
});

test('a failed claim write fires nothing, and the next walk retries the tick', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const events = createFakeEvents(clock);
  const inner = createMemoryRuntimeStores().ticks;
  let failNext = false;
  const ticks = {
    ...inner,
    commit: async (u: Parameters<typeof inner.commit>[0]) => {
      if (failNext) {
        failNext = false;
        throw new Error('disk full');
      }
      return inner.commit(u);
    },
  };
  const scheduler = createScheduler({ clock, events: events.service, ticks });
  await events.service.create({ type: 'schedule:* * * * *', tool_calls: [] });
  await scheduler.walk();
  clock.set('2026-01-15T12:01:00.250Z');
  failNext = true;
  try {
    await scheduler.walk();
    assert.unreachable('the walk should fail');
  } catch (err) {
    assert.match((err as Error).message, 'disk full');
  }
  assert.equal(events.fires, []);
  clock.advance(10_000);
  assert.equal(
    (await scheduler.walk()).fired.map((f) => f.tick),
    ['2026-01-15T12:01:00.000Z'],
  );
});

test('timezones: a 09:00 Europe/Berlin schedule fires at 08:00Z in winter', async () => {
  const { clock, events, scheduler } = await setup('2026-01-15T07:00:00Z');
  await events.service.create({ type: 'schedule:0 9 * * *', tool_calls: call('x'), timezone: 'Europe/Berlin' });
  clock.set('2026-01-15T08:00:00.250Z');
  assert.equal(
    (await scheduler.walk()).fired.map((f) => f.tick),
    ['2026-01-15T08:00:00.000Z'],
  );
});

test('an invalid stored pattern is reported, never fired; deleted schedules lose their cursor', async () => {
  const { clock, events, ticks, scheduler } = await setup();
  const broken = await events.service.create({ type: 'schedule:* * *', tool_calls: [] });
  const gone = await events.service.create({ type: 'schedule:* * * * *', tool_calls: [] });
  clock.set('2026-01-15T12:01:00.250Z');
  const report = await scheduler.walk();
  assert.equal(
    report.invalid.map((i) => i.id),
    [broken.id],
  );
  assert.ok(await ticks.get(gone.id));
  await events.service.delete(gone.id);
  await scheduler.walk();
  assert.is(await ticks.get(gone.id), undefined);
});

test('start walks at once and then at each minute boundary through the timer; stop cancels it', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const events = createFakeEvents(clock);
  const pending: Array<{ fn: () => void; ms: number }> = [];
  const timer: SchedulerTimer = {
    set: (fn, ms) => pending.push({ fn, ms }),
    clear: (_h) => void pending.splice(pending.length - 1, 1),
  };
  await events.service.create({ type: 'schedule:* * * * *', tool_calls: [] });
  const scheduler = createScheduler({ clock, events: events.service, ticks: createMemoryRuntimeStores().ticks, timer });
  scheduler.start();
  await new Promise((r) => setImmediate(r));
  assert.is(pending.length, 1);
  assert.is(pending[0]!.ms, 50_000 + 250, 'aligned just after the next minute');
  clock.set('2026-01-15T12:01:00.250Z');
  pending.shift()!.fn();
  await new Promise((r) => setImmediate(r));
  assert.is(events.fires.length, 1);
  assert.is(pending.length, 1);
  await scheduler.stop();
  assert.is(pending.length, 0, 'stop cleared the timer');
});

test('many schedules sharing a few expressions: each due one fires once', async () => {
  const { clock, events, scheduler } = await setup('2026-01-15T12:00:10Z');
  const kinds = ['* * * * *', '*/5 * * * *', '@hourly', '0 9 * * 1-5'];
  for (let i = 0; i < 2_000; i++) await events.service.create({ type: `schedule:${kinds[i % 4]}`, tool_calls: [] });
  clock.set('2026-01-15T12:05:00.250Z');
  const report = await scheduler.walk();
  assert.is(report.fired.length, 1_000, 'every-minute and every-5-minutes ones');
  clock.set('2026-01-15T12:06:00.250Z');
  assert.is((await scheduler.walk()).fired.length, 500);
});

test('a Company without schedules reads no tick cursors at its minute walks, once its last ones are forgotten', async () => {
  const clock = new FakeClock(Date.parse('2026-01-15T12:00:10Z'));
  const events = createFakeEvents(clock);
  const stored = createMemoryRuntimeStores().ticks;
  let reads = 0;
  const ticks = { ...stored, cursors: () => (reads++, stored.cursors()) };
  const scheduler = createScheduler({ clock, events: events.service, ticks });
  const walks = async (n: number) => {
    for (let i = 0; i < n; i++) clock.advance(_MIN), await scheduler.walk();
  };
  await walks(3);
  assert.is(reads, 1, 'the first walk looks for cursors left from before; the next ones do not');
  const cfg = await events.service.create({ type: 'schedule:* * * * *', tool_calls: call('x') });
  await walks(2);
  assert.is(reads, 3, 'with a schedule, every walk reads them');
  assert.ok(await stored.get(cfg.id));
  await events.service.delete(cfg.id);
  await walks(3);
  assert.is(reads, 4, 'the walk after the delete reads them once more, and forgets the cursor');
  assert.is(await stored.get(cfg.id), undefined);
});

test.run();
