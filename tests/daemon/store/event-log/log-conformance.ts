import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventLog, LogQuery } from '../../../../daemon/store/event-log/index.js';
import { DomainError } from '../../../../daemon/domain-error.js';
import type { EventRow } from '../../../../daemon/company/company-services.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { bruteForce, randomEvent, randomQuery, seededRandom } from './log-fixtures.js';

/** The event log's conformance suite: every implementation (memory, file, PostgreSQL) must pass it unchanged. */
export type OpenLog = (clock: FakeClock) => Promise<EventLog>;

const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
const blank = { agent_id: null, session_id: null, quest_id: null, causation_id: null, content: null };

export function runLogConformance(name: string, open: OpenLog, hooks: { before?: () => Promise<void> } = {}): void {
  const test = suite(`event log conformance: ${name}`);
  if (hooks.before) test.before(hooks.before);

  test('append gives ids in order, the clock time, and a root correlation by default', async () => {
    const clock = new FakeClock();
    const log = await open(clock);
    assert.is(await log.lastId(), null);
    const a = await log.append({
      type: 'session:start',
      agent_id: 'agt_1',
      session_id: 'ses_1',
      quest_id: null,
      content: { n: 1 },
      causation_id: null,
    });
    clock.advance(-60_000); // the clock steps back: ids still increase
    const b = await log.append({
      type: 'quest:created',
      agent_id: null,
      session_id: null,
      quest_id: 'qst_1',
      content: undefined,
      causation_id: a.id,
      correlation_id: a.id,
    });
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

  test('source round-trips: what the writer said, else inferred from the cause', async () => {
    const log = await open(new FakeClock());
    const said = [];
    for (const source of ['manual', 'webhook', 'schedule', 'tool_call', 'emitter'] as const)
      said.push(await log.append({ ...blank, type: 'deploy:done', source }));
    const inferred = await log.append({ ...blank, type: 'x:y' });
    for (const row of [...said, inferred]) assert.is((await log.get(row.id))!.source, row.source);
    assert.equal(
      said.map((r) => r.source),
      ['manual', 'webhook', 'schedule', 'tool_call', 'emitter'],
    );
    assert.is(inferred.source, 'emitter');
    const page = await log.query({ limit: 10 });
    assert.equal(
      page.events.map((r) => r.source),
      [...said, inferred].map((r) => r.source),
    );
    await log.close();
  });

  test('content round-trips as JSON, and a fresh object comes back each time', async () => {
    const log = await open(new FakeClock());
    const row = await log.append({
      ...blank,
      type: 'x:y',
      content: {
        when: new Date(0),
        nested: [1, 'two', { three: true }],
        dropped: undefined,
        text: 'ünïcode \n line \u0000 nul',
      },
    });
    assert.equal(row.content, {
      when: '1970-01-01T00:00:00.000Z',
      nested: [1, 'two', { three: true }],
      text: 'ünïcode \n line \u0000 nul',
    });
    const first = (await log.get(row.id))!;
    (first.content as Record<string, unknown>).text = 'changed';
    assert.equal((await log.get(row.id))!.content, row.content);
    await log.close();
  });

  test('bad input and bad cursors are refused as invalid (a 400), not crashes', async () => {
    const log = await open(new FakeClock());
    for (const input of [
      { ...blank, type: '' },
      { ...blank, type: 5 },
      { ...blank, type: 'a:b', agent_id: 7 },
      { ...blank, type: 'a:b', content: { big: 1n } },
    ]) {
      const err = await log.append(input as never).catch((e) => e);
      assert.instance(
        err,
        DomainError,
        JSON.stringify(input, (_k, v) => (typeof v === 'bigint' ? 'bigint' : v)),
      );
      assert.is((err as DomainError).refusal, 'invalid');
    }
    for (const query of [{ since_id: 'evt_12' }, { since: 'yesterday' }] as LogQuery[]) {
      const err = await log.query(query).catch((e) => e);
      assert.ok(err instanceof DomainError && err.refusal === 'invalid', JSON.stringify(query));
    }
    assert.is(await log.lastId(), null, 'a refused append leaves nothing behind');
    await log.close();
  });

  // PostgreSQL cannot hold a NUL in text, nor a lone surrogate exactly: every log refuses both in
  // what it keeps in columns and in filters, so the answer (a 400) is the same on every store.
  test('a NUL or a lone surrogate in a type, an id or a filter is refused as invalid', async () => {
    const log = await open(new FakeClock());
    for (const field of ['type', 'agent_id', 'session_id', 'quest_id', 'causation_id', 'correlation_id'])
      for (const odd of ['a\u0000b', 'x\ud800']) {
        const err = await log.append({ ...blank, type: 'a:b', [field]: odd }).catch((e) => e);
        assert.ok(err instanceof DomainError && err.refusal === 'invalid', `${field} ${JSON.stringify(odd)}`);
        assert.match(err.message, field);
      }
    for (const field of [
      'event_type',
      'prefix',
      'agent_id',
      'session_id',
      'quest_id',
      'correlation_id',
      'causation_id',
    ])
      for (const odd of ['\u0000', 'y\udfff']) {
        const err = await log.query({ [field]: odd }).catch((e) => e);
        assert.ok(err instanceof DomainError && err.refusal === 'invalid', `${field} ${JSON.stringify(odd)}`);
        assert.match(err.message, field);
      }
    assert.is(await log.lastId(), null);
    await log.close();
  });

  test('every filter, alone and combined', async () => {
    const clock = new FakeClock();
    const log = await open(clock);
    const add = (type: string, extra: Partial<EventRow> = {}) => {
      clock.advance(1000);
      return log.append({ ...blank, type, ...extra });
    };
    const e1 = await add('session:start', { agent_id: 'a1', session_id: 's1' });
    const e2 = await add('quest:created', {
      agent_id: 'a1',
      quest_id: 'q1',
      causation_id: e1.id,
      correlation_id: e1.id,
    });
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
    // The far past and the far future JavaScript's dates reach: PostgreSQL has no year 0 and
    // nothing before 4713 BC, and every store answers them the same.
    for (const since of ['0000-01-01T00:00:00Z', '-271821-04-20T00:00:00Z', '0001-01-01T00:00:00Z'])
      assert.equal(await ids({ since }), [e1.id, e2.id, e3.id, e4.id, e5.id], since);
    assert.equal(await ids({ since: '+275760-09-13T00:00:00Z' }), []);
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
    const rows = await Promise.all(
      Array.from({ length: 1005 }, (_, i) => log.append({ ...blank, type: 't:x', content: i })),
    );
    const count = async (q: LogQuery) => (await log.query(q)).events.length;
    assert.is(await count({}), 100);
    assert.is((await log.query({})).next_since_id, rows[99]!.id);
    assert.is(await count({ limit: 5000 }), 1000);
    assert.is(await count({ limit: 0 }), 1);
    assert.is(await count({ limit: -3 }), 1);
    assert.is(await count({ limit: 2.7 }), 2);
    const tail = await log.query({ since_id: rows[999]!.id, limit: 5 });
    assert.equal(
      tail.events.map((e) => e.content),
      [1000, 1001, 1002, 1003, 1004],
    );
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
      assert.equal(
        got.map((e) => e.id),
        expected.map((e) => e.id),
        JSON.stringify(query),
      );
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
        for (let i = 0; i < 20; i++)
          appended.push(log.append({ ...blank, type: `w:${i % 3}`, agent_id: `a${i % 2}`, content: { wave, i } }));
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
    const err = await log.append({ ...blank, type: 'a:b' }).catch((e) => e);
    assert.instance(err, Error);
  });

  test.run();
}
