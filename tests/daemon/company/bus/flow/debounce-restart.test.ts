import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../../helpers/runtime-app.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

/**
 * On a data folder a debounce still waiting for its quiet is kept in the Company's journal: a
 * restart neither drops it nor fires it early, and it fires once, with the burst's last event,
 * when its quiet comes — as it does on PostgreSQL (flow-team.test.ts).
 */
const open = (clock: FakeClock, dataDir: string, timer = createFakeTimer()) =>
  createRuntimeTestApp({ clock, storage: 'file', dataDir, runtime: { retryTimer: timer } });

const trigger = async (t: RuntimeTestApp, who: string) =>
  (await t.post('/api/events/trigger', { type: 'loop:detected', content: { who } })).body.event.id as string;
const traceOf = async (t: RuntimeTestApp, id: string) => (await t.get(`/api/events/trace?event_id=${id}`)).body;

test('a pending debounce survives a restart and fires after it, at its time, once, with the last event', async () => {
  const clock = new FakeClock();
  const dataDir = tempDir('svc-debounce-restart');
  let t = await open(clock, dataDir);
  await t.post('/api/events', {
    type: 'loop:detected',
    debounce: { period_ms: 10_000, max_wait_ms: 60_000 },
    tool_calls: [{ tool: 'quests.create', args: { title: 'Summarise {{event.content.who}}' } }],
  });
  const first = await trigger(t, 'ada');
  clock.advance(3000);
  const last = await trigger(t, 'bob');
  clock.advance(4000);
  await t.close();

  // Down for 2 s; 4 s of the quiet are left once it is back.
  clock.advance(2000);
  const timer = createFakeTimer();
  t = await open(clock, dataDir, timer);
  assert.is(await t.runtime.debounces.walk(), 0, 'not due yet: nothing fired early');
  assert.ok(
    timer.delays.includes(4000),
    `the walker is set for the debounce's time, not its next poll: ${timer.delays}`,
  );
  clock.advance(3999);
  assert.is(await t.runtime.debounces.walk(), 0);
  clock.advance(1);
  assert.is(await t.runtime.debounces.walk(), 1);
  assert.is(await t.runtime.debounces.walk(), 0, 'fired once');
  const quests = (await t.get('/api/quests')).body.quests;
  assert.equal(
    quests.map((q: { title: string }) => q.title),
    ['Summarise bob'],
  );
  assert.equal(
    (await traceOf(t, last)).fired.map((f: { ok: boolean }) => f.ok),
    [true],
  );
  assert.equal(
    (await traceOf(t, first)).not_fired.map((n: { reason: string }) => n.reason),
    ['debounced'],
  );
  await t.close();

  // Taken for good: a second restart has nothing pending.
  t = await open(clock, dataDir);
  clock.advance(60_000);
  assert.is(await t.runtime.debounces.walk(), 0);
  assert.is((await t.get('/api/quests')).body.quests.length, 1);
  await t.close();
});

test('a debounce due while the daemon was down fires when it starts; one whose rule was deleted fires nothing', async () => {
  const clock = new FakeClock();
  const dataDir = tempDir('svc-debounce-down');
  let t = await open(clock, dataDir);
  const kept = (
    await t.post('/api/events', {
      type: 'loop:detected',
      debounce: { key: '{{event.content.who}}', period_ms: 5000 },
      tool_calls: [{ tool: 'quests.create', args: { title: 'Kept {{event.content.who}}' } }],
    })
  ).body.event.id;
  const gone = (
    await t.post('/api/events', {
      type: 'loop:detected',
      debounce: { period_ms: 5000 },
      tool_calls: [{ tool: 'quests.create', args: { title: 'Gone' } }],
    })
  ).body.event.id;
  await trigger(t, 'ada');
  await t.del(`/api/events/${gone}`);
  await t.close();

  clock.advance(60_000);
  t = await open(clock, dataDir);
  await t.runtime.debounces.walk(); // after the start walk, which fired the due one
  const titles = (await t.get('/api/quests')).body.quests.map((q: { title: string }) => q.title);
  assert.equal(titles, ['Kept ada'], `the start walk fired ${kept}'s debounce, nothing of the deleted rule`);
  await t.close();
});

test.run();
