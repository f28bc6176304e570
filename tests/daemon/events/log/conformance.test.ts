import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../../daemon/http/api-error.js';
import { createMemoryEventLog, openEventLog, type EventLog, type LogQuery } from '../../../../daemon/events/log/index.js';
import type { EventRow } from '../../../../daemon/runtime/services.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { bruteForce, randomEvent, randomQuery, seededRandom } from './log-fixtures.js';

/** One suite, both implementations: the memory log must behave exactly like the file log. */
const implementations: Record<string, (clock: FakeClock) => Promise<EventLog>> = {
  memory: async (clock) => createMemoryEventLog({ clock }),
  file: async (clock) => openEventLog(tempDir('svc-events'), { clock, segmentBytes: 64 * 1024 }),
};

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

for (const [name, open] of Object.entries(implementations)) {
  const test = suite(`event log conformance: ${name}`);

  test('append gives ids in order, the clock time, and a root correlation by default', async () => {
    const clock = new FakeClock();
    const log = await open(clock);
    assert.is(await log.lastId(), null);
    const a = await log.append({ type: 'session:start', agent_id: 'agt_1', session_id: 'ses_1', quest_id: null, content: { n: 1 }, causation_id: null });
    clock.advance(-60_000); // the clock steps back: ids still increase
    const b = await log.append({ type: 'quest:created', agent_id: null, session_id: null, quest_id: 'qst_1', content: undefined, causation_id: a.id, correlation_id: a.id });
    assert.ok(a.id < b.id);
    assert.match(a.id, /^evt_\d{16}$/);
    assert.is(a.created_at, '2026-01-15T12:00:00.000Z');
    assert.is(b.created_at, '2026-01-15T11:59:00.000Z');
    assert.is(a.correlation_id, a.id);
    assert.is(a.causation_id, null);
    assert.is(b.content, null);
    assert.equal(await log.get(a.id), a);
    assert.equal(await log.get(b.id), b);
    assert.is(await log.get('evt_9999999999999999'), undefined);
    assert.is(await log.get('nonsense'), undefined);
    assert.is(await log.lastId(), b.id);
    await log.close();
  });

  test('content round-trips as JSON, and a fresh object comes back each time', async () => {
    const log = await open(new FakeClock());
    const row = await log.append({ type: 'x:y', agent_id: null, session_id: null, quest_id: null, causation_id: null, content: { when: new Date(0), nested: [1, 'two', { three: true }], dropped: undefined, text: 'ünïcode \n line' } });
    assert.equal(row.content, { when: '1970-01-01T00:00:00.000Z', nested: [1, 'two', { three: true }], text: 'ünïcode \n line' });
    const first = (await log.get(row.id))!;
    (first.content as Record<string, unknown>).text = 'changed';
    assert.equal((await log.get(row.id))!.content, row.content);
    await log.close();
  });

  test('bad input and bad cursors are 400s, not crashes', async () => {
    const log = await open(new FakeClock());
    const base = { agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null };
    for (const input of [{ ...base, type: '' }, { ...base, type: 5 }, { ...base, type: 'a:b', agent_id: 7 }, { ...base, type: 'a:b', content: { big: 1n } }]) {
      const err = await log.append(input as never).catch((e) => e);
      assert.instance(err, ApiError, JSON.stringify(input, (_k, v) => (typeof v === 'bigint' ? 'bigint' : v)));
      assert.is((err as ApiError).status, 400);
    }
    for (const query of [{ since_id: 'evt_12' }, { since: 'yesterday' }] as LogQuery[]) {
      const refused = await log.query(query).then(() => null, (e: unknown) => e);
      assert.ok(refused instanceof ApiError && refused.status === 400);
    }
    assert.is(await log.lastId(), null, 'a refused append leaves nothing behind');
    await log.close();
  });

  test('every filter, alone and combined', async () => {
    const clock = new FakeClock();
    const log = await open(clock);
    const add = (type: string, extra: Partial<EventRow> = {}) => {
      clock.advance(1000);
      return log.append({ type, agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null, ...extra });
    };
    const e1 = await add('session:start', { agent_id: 'a1', session_id: 's1' });
    const e2 = await add('quest:created', { agent_id: 'a1', quest_id: 'q1', causation_id: e1.id, correlation_id: e1.id });
    const e3 = await add('session:start', { agent_id: 'a2', session_id: 's2' });
    const e4 = await add('quest:done', { agent_id: 'a2', quest_id: 'q1', causation_id: e2.id, correlation_id: e1.id });
    const e5 = await add('nocolon');
    const ids = async (q: LogQuery) => (await log.query(q)).events.map((e) => e.id);
    assert.equal(await ids({}), [e1.id, e2.id, e3.id, e4.id, e5.id]);
    assert.equal(await ids({ event_type: 'session:start' }), [e1.id, e3.id]);
    assert.equal(await ids({ prefix: 'quest' }), [e2.id, e4.id]);
    assert.equal(await ids({ prefix: 'quest:' }), [e2.id, e4.id]);
    assert.equal(await ids({ agent_id: 'a1' }), [e1.id, e2.id]);
    assert.equal(await ids({ session_id: 's2' }), [e3.id]);
    assert.equal(await ids({ quest_id: 'q1' }), [e2.id, e4.id]);
    assert.equal(await ids({ correlation_id: e1.id }), [e1.id, e2.id, e4.id]);
    assert.equal(await ids({ correlation_id: e3.id }), [e3.id]);
    assert.equal(await ids({ causation_id: e2.id }), [e4.id]);
    assert.equal(await ids({ since: e3.created_at }), [e3.id, e4.id, e5.id]);
    assert.equal(await ids({ since_id: e3.id }), [e4.id, e5.id]);
    assert.equal(await ids({ prefix: 'quest', agent_id: 'a2' }), [e4.id]);
    assert.equal(await ids({ quest_id: 'q1', correlation_id: e1.id, since_id: e2.id }), [e4.id]);
    assert.equal(await ids({ event_type: 'session:start', agent_id: 'a1', session_id: 's2' }), []);
    assert.equal(await ids({ agent_id: 'nobody' }), []);
    assert.equal(await ids({ prefix: 'nocolon' }), [], 'a type without a colon has no prefix');
    await log.close();
  });

  test('limit: default 100, at most 1000, at least 1; next_since_id only when more follows', async () => {
    const log = await open(new FakeClock());
    const rows = await Promise.all(Array.from({ length: 1005 }, (_, i) => log.append({ type: 't:x', agent_id: null, session_id: null, quest_id: null, causation_id: null, content: i })));
    assert.is((await log.query({})).events.length, 100);
    assert.is((await log.query({})).next_since_id, rows[99]!.id);
    assert.is((await log.query({ limit: 5000 })).events.length, 1000);
    assert.is((await log.query({ limit: 0 })).events.length, 1);
    assert.is((await log.query({ limit: -3 })).events.length, 1);
    assert.is((await log.query({ limit: 2.7 })).events.length, 2);
    const tail = await log.query({ since_id: rows[999]!.id, limit: 5 });
    assert.equal(tail.events.map((e) => e.content), [1000, 1001, 1002, 1003, 1004]);
    assert.is(tail.next_since_id, null, 'the last page has no cursor');
    assert.is((await log.query({ since_id: rows[998]!.id, limit: 5 })).next_since_id, rows[1003]!.id);
    await log.close();
  });

  test('randomized filters agree with a brute-force scan, page by page', async () => {
    const clock = new FakeClock();
    const log = await open(clock);
    const random = seededRandom(42);
    const all: EventRow[] = [];
    for (let i = 0; i < 600; i++) {
      clock.advance(Math.floor(random() * 4000) - 1000); // sometimes backwards
      all.push(await log.append(randomEvent(random, all)));
    }
    for (let round = 0; round < 150; round++) {
      const query = randomQuery(random, all, clock.now());
      const expected = bruteForce(all, query);
      const got: EventRow[] = [];
      let cursor: string | null | undefined = query.since_id;
      for (let pages = 0; pages < 1000; pages++) {
        const page = await log.query({ ...query, since_id: cursor ?? undefined });
        got.push(...page.events);
        if (!page.next_since_id) break;
        cursor = page.next_since_id;
      }
      assert.equal(got.map((e) => e.id), expected.map((e) => e.id), JSON.stringify(query));
    }
    await log.close();
  });

  test('since_id pages are exact while appends are in flight: no gaps, no repeats', async () => {
    const log = await open(new FakeClock());
    const appended: Promise<EventRow>[] = [];
    const seen: string[] = [];
    let cursor: string | undefined;
    let done = false;
    const writers = (async () => {
      for (let wave = 0; wave < 30; wave++) {
        for (let i = 0; i < 20; i++) appended.push(log.append({ type: `w:${i % 3}`, agent_id: `a${i % 2}`, session_id: null, quest_id: null, causation_id: null, content: { wave, i } }));
        await yieldToIo();
      }
      await Promise.all(appended);
      done = true;
    })();
    // Page with a small limit until the writers are done and the last page is empty.
    for (let guard = 0; guard < 100_000; guard++) {
      const page = await log.query({ since_id: cursor, limit: 7 });
      for (const e of page.events) seen.push(e.id);
      if (page.events.length > 0) cursor = page.events[page.events.length - 1]!.id;
      if (done && page.events.length === 0) break;
      await yieldToIo();
    }
    await writers;
    const ids = (await Promise.all(appended)).map((e) => e.id);
    assert.equal(seen, ids, 'the reader saw every acknowledged event exactly once, in id order');
    await log.close();
  });

  test('appends after close are refused', async () => {
    const log = await open(new FakeClock());
    await log.close();
    const err = await log.append({ type: 'a:b', agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null }).catch((e) => e);
    assert.instance(err, Error);
  });

  test.run();
}
