import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeTimer } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

/** POST /api/events/preview: a dry run over the stored log that agrees with what live dispatch then does. */
const open = (clock: FakeClock) => createRuntimeTestApp({ clock, runtime: { retryTimer: createFakeTimer() } });
const SINCE = '2026-01-15T12:00:00Z';

/** The same events at the same times: some agents, one burst. */
const script = async (t: RuntimeTestApp, clock: FakeClock) => {
  const ids: string[] = [];
  for (const [who, wait] of [
    ['ada', 0],
    ['ada', 1_000],
    ['bob', 1_000],
    ['ada', 1_000],
    ['ada', 70_000],
    ['bob', 500],
  ] as const) {
    clock.advance(wait);
    ids.push((await t.post('/api/events/trigger', { type: 'loop:detected', content: { who } })).body.event.id);
  }
  return ids;
};

test('preview answers what live dispatch then does for the same events: throttle, matcher, concurrency', async () => {
  const rule = {
    type: 'loop:detected',
    throttle: { key: '{{event.content.who}}', limit: 2, period_ms: 60_000 },
    matcher: { kind: 'predicated', field: 'who', regex: '^(ada|bob)$' },
    tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'look at {{event.content.who}}' } }],
  };
  // Recorded first with no rule, then previewed.
  const clock = new FakeClock();
  const t = await open(clock);
  const ids = await script(t, clock);
  const preview = await t.post('/api/events/preview', { event: rule, since: SINCE });
  assert.is(preview.status, 200, JSON.stringify(preview.body));
  assert.equal(preview.body.not_fired, [{ event_id: ids[3], reason: 'throttled' }]);
  assert.equal(
    preview.body.would_fire.map((w: { event_id: string }) => w.event_id),
    [ids[0], ids[1], ids[2], ids[4], ids[5]],
  );
  assert.equal(preview.body.would_fire[2].tool_calls, [
    { tool: 'message_to', args: { to: 'reviewer', text: 'look at bob' } },
  ]);
  // No side effects: nothing stored, nothing fired, no window counted.
  assert.equal(await t.services.events.listConfigured({ event_type: 'loop:detected' }), []);
  assert.equal((await t.services.events.trace(ids[0]!))!.fired, []);
  // Live, on a fresh Company with the rule saved, the same events at the same times.
  const liveClock = new FakeClock();
  const live = await open(liveClock);
  await live.post('/api/events', rule);
  const liveIds = await script(live, liveClock);
  const fired: number[] = [];
  const refused: Array<[number, string]> = [];
  for (const [i, id] of liveIds.entries()) {
    const tree = (await live.get(`/api/events/trace?event_id=${id}`)).body;
    if (tree.fired.length > 0) fired.push(i);
    for (const n of tree.not_fired) refused.push([i, n.reason]);
  }
  assert.equal(fired, [0, 1, 2, 4, 5]);
  assert.equal(refused, [[3, 'throttled']]);
  await t.close();
  await live.close();
});

test('preview of a debounce and a singleton; a bad rule or range is a 400', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  const ids = await script(t, clock);
  const debounced = await t.post('/api/events/preview', {
    event: {
      type: 'loop:detected',
      debounce: { period_ms: 5_000 },
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    },
    since: SINCE,
    until: '2026-01-15T13:00:00Z',
  });
  // The first burst (4 events in 3 s) fires once, with its last; the second (2 in 0.5 s) likewise.
  assert.equal(
    debounced.body.would_fire.map((w: { event_id: string }) => w.event_id),
    [ids[3], ids[5]],
  );
  assert.equal(
    debounced.body.not_fired.map((n: { event_id: string; reason: string }) => [n.event_id, n.reason]),
    [ids[0], ids[1], ids[2], ids[4]].map((id) => [id, 'debounced']),
  );
  const singleton = await t.post('/api/events/preview', {
    event: {
      type: 'loop:detected',
      concurrency: { limit: 1 },
      tool_calls: [{ tool: 'quests.create', args: { title: 'b' } }],
    },
    since: SINCE,
  });
  assert.is(singleton.body.would_fire.length, 1, 'its quest stays open');
  assert.is(singleton.body.not_fired.length, 5);
  assert.equal(await t.services.quests.list(), [], 'no quest was created');
  for (const [body, code] of [
    [{ event: { type: 'loop:detected', throttle: { limit: 0, period_ms: 1 } }, since: SINCE }, 'invalid_flow_control'],
    [{ event: { type: 'loop:detected' }, since: 'yesterday' }, 'validation_failed'],
    [{ event: { type: 'loop:detected' }, since: SINCE, until: '2026-01-15T11:00:00Z' }, 'validation_failed'],
    [{ event: { type: 'loop:detected', tool_calls: [{ tool: 'nope' }] }, since: SINCE }, 'unknown_tool'],
    [{ since: SINCE }, 'validation_failed'],
  ] as const) {
    const res = await t.post('/api/events/preview', body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.code, code);
  }
  await t.close();
});

test.run();
