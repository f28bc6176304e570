import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseSchedule } from '../../../../shared/cron.js';
import { DEFAULT_SCHEDULES, seedDefaultSchedules } from '../../../../daemon/company/schedules/defaults.js';
import { createScheduler } from '../../../../daemon/company/schedules/scheduler.js';
import { createMemoryRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { createFakeEvents } from '../../../helpers/fake-events.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

test('every default is a valid schedule with tool calls', () => {
  assert.ok(DEFAULT_SCHEDULES.length >= 3);
  for (const d of DEFAULT_SCHEDULES) {
    assert.ok(parseSchedule(d.type, d.timezone).ok, d.type);
    assert.ok(d.tool_calls.length > 0);
    for (const call of d.tool_calls) assert.ok(['quests.create', 'message_to'].includes(call.tool));
  }
});

test('a new Company gets them paused; they never fire until enabled, then fire on their next tick', async () => {
  const clock = new FakeClock(Date.parse('2026-01-12T06:00:00Z')); // a Monday
  const events = createFakeEvents(clock);
  const created = await seedDefaultSchedules(events.service);
  assert.is(created.length, DEFAULT_SCHEDULES.length);
  assert.ok(created.every((c) => c.status === 'paused' && !c.enabled));
  const scheduler = createScheduler({ clock, events: events.service, ticks: createMemoryRuntimeStores().ticks });
  await scheduler.walk();
  clock.set('2026-01-12T09:00:00.250Z');
  await scheduler.walk();
  assert.equal(events.fires, []);
  const digest = created.find((c) => c.type === 'schedule:0 8 * * 1-5')!;
  await events.service.setEnabled(digest.id, true);
  clock.set('2026-01-13T08:00:00.250Z');
  await scheduler.walk();
  assert.equal(
    events.fires.map((f) => f.id),
    [digest.id],
  );
});

test.run();
