import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ConfiguredEvent, Quest } from '../../../daemon/company/company-services.js';
import type { RuntimeSessionRecord } from '../../../daemon/store/types.js';
import type { IdempotencyStore } from '../../../daemon/store/runtime-types.js';
import { createIdempotentRunner } from '../../../daemon/company/bus/idempotency.js';
import { runtimeStoreImplementations } from '../../helpers/store-implementations.js';

/**
 * The per-Company stores' conformance suite (agents, sessions, transcripts, quests, configured
 * events, firings, webhook deliveries), run against every implementation; the journal one is closed
 * and reopened to show each write is durable. Ticks, channels and questions have their own files.
 */
const AT = '2026-01-15T12:00:00.000Z';
const session = (id: string, agent_id: string, over: Partial<RuntimeSessionRecord> = {}): RuntimeSessionRecord => ({
  id,
  agent_id,
  status: 'active',
  gateway_channel_id: null,
  created_at: AT,
  turn_status: 'idle',
  turns_completed: 0,
  context_budget: null,
  context_used: 0,
  stopped_at: null,
  message_count: 0,
  ...over,
});
const quest = (id: string, over: Partial<Quest> = {}): Quest => ({
  id,
  title: `quest ${id}`,
  status: 'open',
  agent_id: null,
  session_id: null,
  result: null,
  created_at: AT,
  updated_at: AT,
  ...over,
});
const cfg = (id: string, type: string, over: Partial<ConfiguredEvent> = {}): ConfiguredEvent => ({
  id,
  type,
  tool_calls: [],
  agent_id: null,
  session_id: null,
  quest_id: null,
  enabled: true,
  status: 'active',
  matcher: null,
  timezone: null,
  created_at: AT,
  ...over,
});
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

for (const [name, make] of Object.entries(runtimeStoreImplementations)) {
  const test = suite(`runtime store conformance: ${name}`);

  test('agents: create, get, list and by role, oldest first; kept across a reopen', async () => {
    const { stores, reopen } = await make();
    await stores.agents.create({ id: 'ag_1', name: 'Ada', role: 'ops', created_at: AT });
    await stores.agents.create({ id: 'ag_2', name: 'Bob', role: null, created_at: AT });
    await stores.agents.create({ id: 'ag_3', name: 'Cy', role: 'ops', created_at: AT });
    assert.is((await stores.agents.get('ag_2'))?.name, 'Bob');
    assert.is(await stores.agents.get('__proto__'), undefined);
    assert.equal(ids(await stores.agents.withRole('ops')), ['ag_1', 'ag_3']);
    const again = reopen ? await reopen() : stores;
    assert.equal(ids(await again.agents.list()), ['ag_1', 'ag_2', 'ag_3']);
    assert.equal(ids(await again.agents.withRole('ops')), ['ag_1', 'ag_3']);
  });

  test('sessions: created with their seeded configured events in one write; filtered; check-and-set', async () => {
    const { stores, reopen } = await make();
    await stores.sessions.create(session('se_1', 'ag_1'), [
      cfg('ce_1', 'session:start', { session_id: 'se_1' }),
      cfg('ce_2', 'session:stopped', { session_id: 'se_1' }),
    ]);
    await stores.sessions.create(session('se_2', 'ag_2'), []);
    await stores.sessions.create(session('se_3', 'ag_1'), []);
    assert.equal(ids(await stores.configured.list({ session_id: 'se_1' })), ['ce_1', 'ce_2']);
    const stopped = await stores.sessions.update('se_1', (s) => ({ ...s, status: 'stopped' }));
    assert.is(stopped?.status, 'stopped');
    assert.is(await stores.sessions.update('se_9', (s) => s), undefined, 'no such session');
    try {
      await stores.sessions.update('se_2', () => {
        throw new Error('refused');
      });
      assert.unreachable();
    } catch (err) {
      assert.is((err as Error).message, 'refused');
    }
    assert.equal(ids(await stores.sessions.list({ agent_id: 'ag_1' })), ['se_1', 'se_3']);
    assert.equal(ids(await stores.sessions.list({ agent_id: 'ag_1', status: 'active' })), ['se_3']);
    await stores.sessions.update('se_2', (s) => ({ ...s, gateway_channel_id: 'ci' }));
    assert.equal(ids(await stores.sessions.list({ gateway_channel_id: 'ci', status: 'active' })), ['se_2']);
    const again = reopen ? await reopen() : stores;
    assert.equal(ids(await again.sessions.list()), ['se_1', 'se_2', 'se_3'], 'an update keeps the order');
    assert.equal(ids(await again.sessions.list({ status: 'stopped' })), ['se_1']);
    assert.is((await again.sessions.get('se_2'))?.status, 'active');
  });

  test('transcripts: one record per message, in order; concurrent appends never share a place', async () => {
    const { stores, reopen } = await make();
    await stores.sessions.create(session('se_1', 'ag_1'), []);
    const grow = (s: RuntimeSessionRecord) => ({ ...s, context_used: (s.context_used ?? 0) + 1 });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stores.transcripts.append('se_1', { at: AT, from: 'user', text: `m${i}` }, grow),
      ),
    );
    assert.is(await stores.transcripts.append('se_9', { at: AT, from: 'user', text: 'lost' }, grow), undefined);
    try {
      await stores.transcripts.append('se_1', { at: AT, from: 'user', text: 'refused' }, () => {
        throw new Error('stopped');
      });
      assert.unreachable();
    } catch (err) {
      assert.is((err as Error).message, 'stopped');
    }
    const again = reopen ? await reopen() : stores;
    const texts = (await again.transcripts.list('se_1')).map((m) => m.text);
    assert.equal(
      texts,
      Array.from({ length: 20 }, (_, i) => `m${i}`),
      'the refused message was not kept',
    );
    const s = await again.sessions.get('se_1');
    assert.is(s?.context_used, 20);
    assert.is(s?.message_count, 20);
    assert.equal(await again.transcripts.list('se_9'), []);
    const tail = await again.transcripts.tail('se_1', 3);
    assert.equal([tail.total, tail.entries.map((m) => m.text)], [20, ['m17', 'm18', 'm19']]);
    assert.equal((await again.transcripts.tail('se_1', 50)).entries.length, 20);
    assert.equal(await again.transcripts.tail('se_1', 0), { entries: [], total: 20 });
    assert.equal(await again.transcripts.tail('se_9', 5), { entries: [], total: 0 });
  });

  test('quests: filters by status, agent and session, oldest first however they changed', async () => {
    const { stores, reopen } = await make();
    await stores.quests.create(quest('qs_1', { agent_id: 'ag_1' }));
    await stores.quests.create(quest('qs_2', { agent_id: 'ag_1', session_id: 'se_1' }));
    await stores.quests.create(quest('qs_3'));
    await stores.quests.update('qs_1', (q) => ({ ...q, status: 'done' }));
    await stores.quests.update('qs_1', (q) => ({ ...q, status: 'open', session_id: 'se_1' }));
    assert.is(await stores.quests.update('qs_9', (q) => q), undefined);
    const again = reopen ? await reopen() : stores;
    assert.equal(ids(await again.quests.list()), ['qs_1', 'qs_2', 'qs_3']);
    assert.equal(ids(await again.quests.list({ status: 'open' })), ['qs_1', 'qs_2', 'qs_3']);
    assert.equal(ids(await again.quests.list({ session_id: 'se_1' })), ['qs_1', 'qs_2']);
    assert.equal(ids(await again.quests.list({ agent_id: 'ag_1', session_id: 'se_1', status: 'open' })), [
      'qs_1',
      'qs_2',
    ]);
    assert.equal(ids(await again.quests.list({ status: 'done' })), []);
  });

  test('configured events: by pattern and scope; update; delete once', async () => {
    const { stores, reopen } = await make();
    await stores.configured.create(cfg('ce_1', 'quest:done', { agent_id: 'ag_1' }));
    await stores.configured.create(cfg('ce_2', 'schedule:@hourly'));
    await stores.configured.create(cfg('ce_3', 'quest:done', { quest_id: 'qs_1' }));
    assert.equal(ids(await stores.configured.list({ type: 'quest:done' })), ['ce_1', 'ce_3']);
    assert.equal(ids(await stores.configured.list({ type: 'quest:done', agent_id: 'ag_1' })), ['ce_1']);
    assert.equal(ids(await stores.configured.list({ prefix: 'schedule' })), ['ce_2']);
    assert.equal(ids(await stores.configured.list({ prefix: 'quest', quest_id: 'qs_1' })), ['ce_3']);
    assert.is((await stores.configured.update('ce_2', (c) => ({ ...c, enabled: false })))?.enabled, false);
    assert.ok(await stores.configured.delete('ce_1'));
    assert.not.ok(await stores.configured.delete('ce_1'));
    const again = reopen ? await reopen() : stores;
    assert.equal(ids(await again.configured.list()), ['ce_2', 'ce_3']);
    assert.is((await again.configured.get('ce_2'))?.enabled, false);
    assert.is(await again.configured.get('ce_1'), undefined);
  });

  test('firings: each dispatch adds its own record; an event reads them all in order', async () => {
    const { stores, reopen } = await make();
    await stores.firings.add('ev_1', [{ configured_event_id: 'ce_1', tool: 'a', ok: true, result: 1 }]);
    await stores.firings.add('ev_2', [{ configured_event_id: 'ce_1', tool: 'a', ok: false, error: 'no' }]);
    await stores.firings.add('ev_1', [
      { configured_event_id: 'ce_2', tool: 'b', ok: true },
      { configured_event_id: 'ce_2', tool: 'c', ok: true },
    ]);
    const again = reopen ? await reopen() : stores;
    assert.equal(
      (await again.firings.of('ev_1')).map((f) => f.tool),
      ['a', 'b', 'c'],
    );
    assert.equal(
      (await again.firings.of('ev_2')).map((f) => f.error),
      ['no'],
    );
    assert.equal(await again.firings.of('ev_3'), []);
  });

  test('any text a user can send, NUL and backslashes included, is kept and found (never an error)', async () => {
    const { stores, reopen } = await make();
    const odd = 'a\u0000b\\0c\\';
    await stores.agents.create({ id: 'ag_1', name: odd, role: odd, created_at: AT });
    await stores.agents.create({ id: 'ag_2', name: 'plain', role: 'a\\0b\\\\0c\\', created_at: AT });
    await stores.sessions.create(session('se_1', 'ag_1'), []);
    await stores.transcripts.append('se_1', { at: AT, from: odd, text: odd }, (s) => s);
    await stores.ticks.commit([{ id: odd, active: true, baseline: AT }]);
    const again = reopen ? await reopen() : stores;
    assert.equal(ids(await again.agents.withRole(odd)), ['ag_1']);
    assert.is((await again.agents.get('ag_1'))?.name, odd);
    assert.equal(await again.transcripts.list('se_1'), [{ at: AT, from: odd, text: odd }]);
    assert.is(await again.agents.get(odd), undefined);
    assert.equal(await again.transcripts.list(odd), []);
    assert.equal(await again.quests.list({ agent_id: odd }), []);
    assert.equal(await again.firings.of(odd), []);
    assert.equal(await again.ticks.ids(), [odd]);
  });

  test('firings keep what did not fire; idempotent answers last their window, a key moves on replace', async () => {
    const { stores, reopen } = await make();
    await stores.firings.add('ev_1', [], [{ configured_event_id: 'ce_1', reason: 'paused' }]);
    await stores.firings.add('ev_1', [{ configured_event_id: 'ce_2', tool: 'a', ok: true }]);
    await stores.firings.add('ev_1', [], [{ configured_event_id: 'ce_3', reason: 'scope' }]);
    const t0 = Date.parse(AT);
    const windowMs = stores.idempotency.windowMs;
    await stores.idempotency.remember('s\u0000k1', { fingerprint: 'f1', answer: { id: 'x' } }, t0);
    await stores.idempotency.remember('s\u0000k2', { fingerprint: 'f2', answer: null }, t0);
    await stores.idempotency.remember('s\u0000k1', { fingerprint: 'f1b', answer: 2 }, t0 + 1000);
    const again = reopen ? await reopen() : stores;
    assert.equal(
      (await again.firings.notFiredOf('ev_1')).map((n) => n.configured_event_id),
      ['ce_1', 'ce_3'],
    );
    assert.equal(
      (await again.firings.of('ev_1')).map((f) => f.tool),
      ['a'],
    );
    assert.equal(await again.firings.notFiredOf('ev_2'), []);
    assert.equal(await again.idempotency.get('s\u0000k1', t0 + 2000), { fingerprint: 'f1b', answer: 2 });
    assert.equal(await again.idempotency.get('s\u0000k2', t0 + 2000), { fingerprint: 'f2', answer: null });
    assert.is(await again.idempotency.get('s\u0000k2', t0 + windowMs), undefined, 'past the window');
    assert.ok(
      await again.idempotency.get('s\u0000k1', t0 + windowMs + 999),
      'the replaced answer counts from its own time',
    );
    assert.is(await again.idempotency.get('nope', t0), undefined);
  });

  test('webhook deliveries: a replay is refused, also after a reopen, until the retention passes', async () => {
    const { stores, reopen } = await make();
    const t0 = Date.parse(AT);
    assert.ok(await stores.deliveries.firstSeen('co/ci\u0000d1', t0));
    assert.not.ok(await stores.deliveries.firstSeen('co/ci\u0000d1', t0 + 1_000));
    assert.ok(await stores.deliveries.firstSeen('co/other\u0000d1', t0), 'per channel');
    const again = reopen ? await reopen() : stores;
    assert.not.ok(await again.deliveries.firstSeen('co/ci\u0000d1', t0 + 2_000), 'remembered across a restart');
    assert.ok(
      await again.deliveries.firstSeen('co/ci\u0000d1', t0 + 600_001),
      'forgotten once its signature window has closed',
    );
    assert.is(await again.deliveries.size(), 1, 'expired ids are dropped as new ones arrive');
  });

  test('webhook delivery ids and idempotent answers are capped per Company: the oldest go first', async () => {
    const { stores, reopen } = await make({ maxDeliveryIds: 20, maxIdempotencyKeys: 20 });
    const t0 = Date.parse(AT);
    for (let i = 0; i < 50; i++) {
      assert.ok(await stores.deliveries.firstSeen(`co/ci\u0000d${i}`, t0 + i));
      await stores.idempotency.remember(`s\u0000k${i}`, { fingerprint: `f${i}`, answer: i }, t0 + i);
    }
    const again = reopen ? await reopen() : stores;
    assert.is(await again.deliveries.size(), 20);
    assert.not.ok(await again.deliveries.firstSeen('co/ci\u0000d49', t0 + 60), 'the newest ids are kept');
    assert.not.ok(await again.deliveries.firstSeen('co/ci\u0000d30', t0 + 60));
    assert.ok(await again.deliveries.firstSeen('co/ci\u0000d29', t0 + 60), 'past the cap: forgotten, seen as new');
    assert.equal(await again.idempotency.get('s\u0000k49', t0 + 60), { fingerprint: 'f49', answer: 49 });
    assert.equal(await again.idempotency.get('s\u0000k30', t0 + 60), { fingerprint: 'f30', answer: 30 });
    assert.is(await again.idempotency.get('s\u0000k29', t0 + 60), undefined, 'past the cap: forgotten');
    assert.is(await again.idempotency.get('s\u0000k0', t0 + 60), undefined);
  });

  test('a keyed answer the store refuses once still reaches its caller, is replayed meanwhile, and is stored next', async () => {
    const { stores, reopen } = await make();
    const t0 = Date.parse(AT);
    let refusals = 1;
    const flaky: IdempotencyStore = {
      ...stores.idempotency,
      remember: (...args) =>
        refusals-- > 0 ? Promise.reject(new Error('no space left on device')) : stores.idempotency.remember(...args),
    };
    let next!: () => void;
    const once = createIdempotentRunner(flaky, () => t0, { pause: () => new Promise<void>((r) => (next = r)) });
    let runs = 0;
    const run = async () => ({ event: `evt_${++runs}` });
    assert.equal(await once('emit', 'k', { type: 'x' }, run), { answer: { event: 'evt_1' }, replayed: false });
    assert.equal(await once('emit', 'k', { type: 'x' }, run), { answer: { event: 'evt_1' }, replayed: true });
    next();
    await once.settled();
    const again = reopen ? await reopen() : stores;
    assert.equal(await again.idempotency.get('emit\u0000k', t0), {
      fingerprint: createHash('sha256')
        .update(JSON.stringify({ type: 'x' }))
        .digest('base64url'),
      answer: { event: 'evt_1' },
    });
    assert.is(runs, 1);
  });

  test.run();
}

const journal = suite('runtime store: journal costs');

journal('appending a message writes what it changes, however long the transcript', async () => {
  const { stores, dir } = await runtimeStoreImplementations.journal!();
  const file = join(dir!, 'runtime', '000001.jsonl'); // the segment being appended to
  await stores.sessions.create(session('se_1', 'ag_1'), []);
  const append = async (i: number) => {
    const before = statSync(file).size;
    await stores.transcripts.append(
      'se_1',
      { at: AT, from: 'user', text: `message ${String(i).padStart(4, '0')}` },
      (s) => s,
    );
    return statSync(file).size - before;
  };
  const second = (await append(0), await append(1));
  for (let i = 2; i < 300; i++) await append(i);
  // Only the counters in the line grow (a few digits): nothing of the earlier messages is written again.
  const later = await append(300);
  assert.ok(later <= second + 16, `the 301st append wrote ${later} bytes, the 2nd ${second}`);
  await stores.close();
});

journal.run();
