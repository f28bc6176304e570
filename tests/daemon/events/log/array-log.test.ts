import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryEventLog } from '../../../../daemon/events/log/index.js';
import type { LogQuery } from '../../../../daemon/events/log/types.js';
import type { EventRow } from '../../../../daemon/runtime/services.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

const row = (type: string, extra: Partial<EventRow> = {}) => ({ type, agent_id: null, session_id: null, quest_id: null, content: null, causation_id: null, ...extra });

test('ids sort in append order, even when the clock steps back', async () => {
  const clock = new FakeClock();
  const log = createMemoryEventLog({ clock });
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) {
    if (i === 25) clock.advance(-60_000);
    ids.push((await log.append(row('session:start'))).id);
  }
  assert.equal([...ids].sort(), ids);
  assert.is(log.lastId(), ids.at(-1));
});

test('correlation defaults to the event itself; a given one is kept', async () => {
  const log = createMemoryEventLog({ clock: new FakeClock() });
  const root = await log.append(row('session:start'));
  assert.is(root.correlation_id, root.id);
  const child = await log.append({ ...row('session:stopped', { causation_id: root.id }), correlation_id: root.id });
  assert.is(child.correlation_id, root.id);
  assert.is(log.get(child.id)?.causation_id, root.id);
});

test('since_id pages are exact (no gaps, no repeats) while appends run concurrently', async () => {
  const log = createMemoryEventLog({ clock: new FakeClock() });
  const seen: string[] = [];
  let cursor: string | undefined;
  const writers = Array.from({ length: 8 }, async (_, w) => {
    for (let i = 0; i < 40; i++) await log.append(row(`session:w${w}`));
  });
  const reader = (async () => {
    for (let spins = 0; spins < 10_000 && seen.length < 320; spins++) {
      const page = log.query({ since_id: cursor, limit: 7 });
      for (const e of page.events) seen.push(e.id);
      if (page.events.length) cursor = page.events.at(-1)!.id;
      await Promise.resolve();
    }
  })();
  await Promise.all([...writers, reader]);
  const rest = log.query({ since_id: cursor, limit: 1000 });
  seen.push(...rest.events.map((e) => e.id));
  assert.is(seen.length, 320);
  assert.is(new Set(seen).size, 320);
  assert.equal(seen, [...seen].sort());
});

test('randomized filters agree with a brute-force scan', async () => {
  const clock = new FakeClock();
  const log = createMemoryEventLog({ clock });
  const all: EventRow[] = [];
  let seed = 42;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  const types = ['session:start', 'session:stopped', 'loop:detected', 'context:budget:exceeded'];
  const pick = (prefix: string) => (rnd(4) === 0 ? null : `${prefix}${rnd(3)}`);
  for (let i = 0; i < 400; i++) {
    clock.advance(rnd(3) * 1000);
    const parent = all.length && rnd(3) === 0 ? all[rnd(all.length)]! : null;
    all.push(await log.append({ ...row(types[rnd(4)]!, { agent_id: pick('a'), session_id: pick('s'), quest_id: pick('q'), causation_id: parent?.id ?? null }), correlation_id: parent?.correlation_id }));
  }
  for (let round = 0; round < 200; round++) {
    const q: LogQuery = {};
    if (rnd(2)) q.event_type = types[rnd(4)];
    if (rnd(3) === 0) q.prefix = ['session', 'loop', 'context'][rnd(3)];
    if (rnd(2)) q.agent_id = `a${rnd(3)}`;
    if (rnd(3) === 0) q.session_id = `s${rnd(3)}`;
    if (rnd(3) === 0) q.quest_id = `q${rnd(3)}`;
    if (rnd(4) === 0) q.since = all[rnd(all.length)]!.created_at;
    if (rnd(2)) q.since_id = all[rnd(all.length)]!.id;
    if (rnd(5) === 0) q.correlation_id = all[rnd(all.length)]!.correlation_id;
    q.limit = 1 + rnd(30);
    const want = all.filter(
      (e) =>
        (q.event_type === undefined || e.type === q.event_type) &&
        (q.prefix === undefined || e.type.startsWith(q.prefix + ':')) &&
        (q.agent_id === undefined || e.agent_id === q.agent_id) &&
        (q.session_id === undefined || e.session_id === q.session_id) &&
        (q.quest_id === undefined || e.quest_id === q.quest_id) &&
        (q.since === undefined || e.created_at >= q.since) &&
        (q.since_id === undefined || e.id > q.since_id) &&
        (q.correlation_id === undefined || e.correlation_id === q.correlation_id),
    );
    const got = log.query(q);
    assert.equal(got.events.map((e) => e.id), want.slice(0, q.limit).map((e) => e.id), JSON.stringify(q));
    assert.is(got.next_since_id, want.length > q.limit ? want[q.limit - 1]!.id : null);
  }
});

test('limit defaults to 100 and is capped at 1000', async () => {
  const log = createMemoryEventLog({ clock: new FakeClock() });
  for (let i = 0; i < 1100; i++) await log.append(row('session:start'));
  assert.is(log.query({}).events.length, 100);
  assert.is(log.query({ limit: 5000 }).events.length, 1000);
});

test.run();
