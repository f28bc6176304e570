import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { defaultConfig } from '../../../../daemon/config.js';
import { createIdGenerator } from '../../../../daemon/ids.js';
import { silentLogger } from '../../../../daemon/logger.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import { createRuntimeHost } from '../../../../daemon/company/host.js';
import type { OpenedRuntime } from '../../../../daemon/company/open-company.js';
import { createSealer } from '../../../../daemon/store/sealer.js';
import { createEmitterTestApp, createFakeTimer, type EmitterTestApp } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const everyMinute = (title: string) => ({
  type: 'schedule:* * * * *',
  tool_calls: [{ tool: 'quests.create', args: { title } }],
});
const titles = async (a: EmitterTestApp) => (await a.runtime.services.quests.list()).map((q) => q.title);
const ticksOf = async (a: EmitterTestApp, type: string) =>
  (await a.runtime.services.events.list({ event_type: type })).events;

test('a new Company gets the default schedules, paused, each listed with its next 5 runs', async () => {
  const a = await createEmitterTestApp();
  const res = await a.get('/api/events?configured=true&scheduled=true');
  assert.is(res.status, 200);
  assert.is(res.body.events.length, 4);
  for (const e of res.body.events) {
    assert.ok(e.type.startsWith('schedule:'), e.type);
    assert.is(e.status, 'paused');
    assert.is(e.next_runs.length, 5);
  }
  const hourly = res.body.events.find((e: { type: string }) => e.type === 'schedule:@hourly');
  assert.equal(hourly.next_runs.slice(0, 2), ['2026-01-15T13:00:00.000Z', '2026-01-15T14:00:00.000Z']);
  // Paused defaults never fire.
  a.clock.advance(2 * 3600_000);
  await a.walk();
  assert.equal(await titles(a), []);
});

test('a schedule fires on the minute walk: one log row and its tool call, never twice in the same minute', async () => {
  const a = await createEmitterTestApp();
  a.clock.set('2026-01-15T12:00:10Z');
  const created = await a.post('/api/events', everyMinute('Poll'));
  assert.is(created.status, 201);
  assert.equal(created.body.event.next_runs.slice(0, 2), ['2026-01-15T12:01:00.000Z', '2026-01-15T12:02:00.000Z']);
  // The runtime's scheduler asked its timer for the next minute boundary (just after it).
  assert.ok(a.timer.pending() >= 1);
  assert.ok(
    a.timer.delays.every((ms) => ms > 0 && ms <= 60_250),
    String(a.timer.delays),
  );
  a.clock.set('2026-01-15T12:01:00.250Z');
  a.timer.fire(); // the minute loop's walk
  await a.walk(); // a second walk in the same minute (chained after the first)
  assert.equal(await titles(a), ['Poll']);
  const rows = await ticksOf(a, 'schedule:* * * * *');
  assert.is(rows.length, 1);
  assert.equal(rows[0]!.content, { tick: '2026-01-15T12:01:00.000Z', scheduled: 'schedule:* * * * *' });
  // The trace links the tick to what it fired.
  assert.is((await a.get(`/api/events/trace?event_id=${rows[0]!.id}`)).body.fired[0].tool, 'quests.create');
  a.clock.set('2026-01-15T12:02:00.300Z');
  await a.walk();
  assert.equal(await titles(a), ['Poll', 'Poll']);
});

test('enable and disable flip a default schedule; it never catches up on the time it was paused', async () => {
  const a = await createEmitterTestApp();
  const hourly = (await a.get('/api/events?scheduled=true')).body.events.find(
    (e: { type: string }) => e.type === 'schedule:@hourly',
  );
  a.clock.set('2026-01-15T15:30:00Z');
  const enabled = await a.post(`/api/events/${hourly.id}/enable`);
  assert.is(enabled.body.event.status, 'active');
  assert.is(enabled.body.event.next_runs[0], '2026-01-15T16:00:00.000Z');
  await a.walk();
  assert.equal(await titles(a), [], 'no tick from before it was enabled');
  a.clock.set('2026-01-15T16:00:00.250Z');
  await a.walk();
  assert.is((await titles(a)).length, 1);
  assert.match((await titles(a))[0]!, /Stale-quest check/);
  await a.post(`/api/events/${hourly.id}/disable`);
  a.clock.set('2026-01-15T17:00:00.250Z');
  await a.walk();
  assert.is((await titles(a)).length, 1);
});

test('missed ticks through the runtime: latest fires once, late; all fires each; skip fires none', async () => {
  const every5 = 'schedule:*/5 * * * *';
  for (const [missed, expected] of [
    ['latest', 1],
    ['all', 3],
    ['skip', 0],
  ] as const) {
    const a = await createEmitterTestApp({ policy: { missed } });
    await a.post('/api/events', { type: every5, tool_calls: [{ tool: 'quests.create', args: { title: missed } }] });
    a.clock.set('2026-01-15T12:17:30Z'); // 12:05, 12:10 and 12:15 passed with no walk (the daemon was down)
    await a.walk();
    assert.is((await titles(a)).length, expected, missed);
    if (missed === 'latest')
      assert.equal((await ticksOf(a, every5))[0]!.content, {
        tick: '2026-01-15T12:15:00.000Z',
        scheduled: every5,
        late: true,
      });
    if (missed === 'all')
      assert.equal(
        (await ticksOf(a, every5)).map((e) => (e.content as { tick: string }).tick.slice(11, 16)),
        ['12:05', '12:10', '12:15'],
      );
  }
});

test('file storage: a restarted runtime never fires a tick again, and catches up once on missed ones', async () => {
  const dataDir = tempDir('svc-sched-restart');
  const clock = new FakeClock();
  const sealer = createSealer(randomBytes(32));
  const a = await createEmitterTestApp({ storage: 'file', dataDir, clock, sealer });
  await a.post('/api/events', everyMinute('Durable'));
  clock.set('2026-01-15T12:01:00.250Z');
  await a.walk();
  assert.equal(await titles(a), ['Durable']);
  await a.t.deps.runtimes.close();

  const reopen = async (): Promise<OpenedRuntime> => {
    const host = createRuntimeHost({
      config: defaultConfig({ dataDir }),
      clock,
      ids: createIdGenerator(clock, cryptoRandom),
      log: silentLogger,
      storage: 'file',
      sealer,
      runtime: { schedulerTimer: createFakeTimer() },
    });
    return (await host.open({ id: a.company.id, name: a.company.name, owner_id: a.user.user.id })) as OpenedRuntime;
  };
  clock.set('2026-01-15T12:01:40Z'); // same minute, after a restart
  const again = await reopen();
  await again.scheduler.walk();
  assert.equal(
    (await again.services.quests.list()).map((q) => q.title),
    ['Durable'],
  );
  clock.set('2026-01-15T12:04:10Z');
  await again.scheduler.walk();
  assert.equal(
    (await again.services.quests.list()).map((q) => q.title),
    ['Durable', 'Durable'],
  );
  const rows = (await again.services.events.list({ event_type: 'schedule:* * * * *' })).events;
  assert.equal(
    rows.map((r) => (r.content as { tick: string }).tick),
    ['2026-01-15T12:01:00.000Z', '2026-01-15T12:04:00.000Z'],
  );
  await again.close();
});

test('invalid cron, timezone and regex are refused with the reason', async () => {
  const a = await createEmitterTestApp();
  const bad = async (body: object, code: string, reason: RegExp) => {
    const res = await a.post('/api/events', { tool_calls: [], ...body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.code, code);
    assert.match(res.body.error, reason);
  };
  await bad({ type: 'schedule:61 * * * *' }, 'invalid_schedule', /minute/);
  await bad({ type: 'schedule:* * * *' }, 'invalid_schedule', /exactly 5 fields/);
  await bad({ type: 'schedule:@reboot' }, 'invalid_schedule', /reboot/);
  await bad({ type: 'schedule:0 9 * * *', timezone: 'Mars/Olympus' }, 'invalid_schedule', /Mars\/Olympus/);
  await bad({ type: 'session:start', timezone: 'Europe/Berlin' }, 'invalid_schedule', /only to 'schedule:'/);
  await bad(
    { type: 'shell:command_failed', matcher: { kind: 'predicated', field: 'command', regex: '(a)\\1' } },
    'invalid_matcher',
    /backreferences/,
  );
  await bad(
    { type: 'shell:command_failed', matcher: { kind: 'predicated', field: 'command', regex: '(x' } },
    'invalid_matcher',
    /regex/,
  );
});

test('a timezone is kept and read in local time across the spring-forward night', async () => {
  const a = await createEmitterTestApp({ clock: new FakeClock(Date.parse('2026-03-27T12:00:00Z')) });
  // Across the spring-forward night in Berlin, 02:30 local does not exist: that day runs at 03:30 CEST.
  const ok = await a.post('/api/events', { type: 'schedule:30 2 * * *', timezone: 'Europe/Berlin', tool_calls: [] });
  assert.is(ok.status, 201);
  assert.is(ok.body.event.timezone, 'Europe/Berlin');
  assert.equal(ok.body.event.next_runs.slice(0, 3), [
    '2026-03-28T01:30:00.000Z',
    '2026-03-29T01:30:00.000Z',
    '2026-03-30T00:30:00.000Z',
  ]);
});

test.run();
