import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { companyDataDir } from '../../../../../daemon/company/seam.js';
import { openJournalRuntimeStores } from '../../../../../daemon/store/runtime/open.js';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../../helpers/runtime-app.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

/** Through the HTTP API: retries of a failed tool call, their trace, a restart. */
const open = (clock: FakeClock, more: { storage?: 'file'; dataDir?: string } = {}) =>
  createRuntimeTestApp({ clock, ...more, runtime: { retryTimer: createFakeTimer() } });

// message_to a role nobody holds fails when it runs (retryable); it works once such an agent exists.
const rule = (retry: unknown) => ({
  type: 'loop:detected',
  retry,
  tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'look at {{event.id}}' } }],
});
const at = (clock: FakeClock, ms: number) => new Date(clock.now() + ms).toISOString();
const traceOf = async (t: RuntimeTestApp, id: string) => (await t.get(`/api/events/trace?event_id=${id}`)).body;

test('bad retry policies are a 400 invalid_retry naming the field, on create and on update', async () => {
  const t = await open(new FakeClock());
  for (const [retry, message] of [
    [{ max_attempts: 0 }, /retry\.max_attempts: must be at least 1/],
    [{ max_attempts: 11 }, /retry\.max_attempts: must be at most 10/],
    [{ max_attempts: 2.5 }, /retry\.max_attempts: must be a whole number/],
    [{ max_attempts: '3' }, /retry\.max_attempts/],
    [{}, /retry\.max_attempts/],
    [{ max_attempts: 3, backoff: { initial_ms: 10 } }, /retry\.backoff\.initial_ms: must be at least 1000/],
    [{ max_attempts: 3, backoff: { initial_ms: 5000, max_ms: 2000 } }, /max_ms: 2000 is below initial_ms 5000/],
    [{ max_attempts: 3, backoff: { jitter: 'random' } }, /retry\.backoff\.jitter/],
    [{ max_attempts: 3, tries: 2 }, /retry: .*tries/],
  ] as const) {
    const res = await t.post('/api/events', rule(retry));
    assert.is(res.status, 400, JSON.stringify(retry));
    assert.is(res.body.code, 'invalid_retry');
    assert.match(res.body.error, message);
  }
  const ok = await t.post('/api/events', rule({ max_attempts: 3 }));
  assert.is(ok.status, 201);
  // Defaults filled in and shown: a 10 s first wait, a 10 min ceiling, full jitter.
  assert.equal(ok.body.event.retry, {
    max_attempts: 3,
    backoff: { initial_ms: 10_000, max_ms: 600_000, jitter: 'full' },
  });
  const id = ok.body.event.id;
  const bad = await t.patch(`/api/events/${id}`, { retry: { max_attempts: -1 } });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'invalid_retry');
  const cleared = await t.patch(`/api/events/${id}`, { retry: null });
  assert.is(cleared.body.event.retry, null);
  await t.close();
});

test('a failed call is retried with backoff until it works; each attempt is in trace', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', rule({ max_attempts: 4, backoff: { initial_ms: 1000, max_ms: 4000 } }));
  const first = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body;
  const f1 = first.fired[0];
  assert.is(f1.ok, false);
  assert.match(f1.error, /reviewer/);
  assert.is(f1.attempt, 1);
  assert.is(f1.call_index, 0);
  // Attempt 1 failed: the first wait is initial_ms (the jitter ceiling is initial_ms · 2^0).
  assert.is(f1.next_attempt_at, at(clock, 1000));
  assert.is(f1.outcome, undefined);

  clock.advance(999);
  assert.equal((await t.runtime.retries.walk()).ran, [], 'not due yet');
  clock.advance(1);
  await t.runtime.retries.walk();
  let fired = (await traceOf(t, first.event.id)).fired;
  assert.is(fired.length, 2);
  assert.is(fired[1].attempt, 2);
  assert.is(fired[1].ok, false);
  // The second wait is drawn with jitter in [initial_ms, initial_ms · 2].
  const wait = Date.parse(fired[1].next_attempt_at) - clock.now();
  assert.ok(wait >= 1000 && wait <= 2000, String(wait));

  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  clock.advance(wait);
  const report = await t.runtime.retries.walk();
  assert.is(report.ran.length, 1);
  fired = (await traceOf(t, first.event.id)).fired;
  assert.is(fired.length, 3);
  assert.is(fired[2].attempt, 3);
  assert.is(fired[2].ok, true);
  assert.is(fired[2].outcome, 'succeeded');
  assert.is(fired[2].next_attempt_at, undefined);
  // Settled: nothing more runs, however long we wait.
  clock.advance(3_600_000);
  assert.equal((await t.runtime.retries.walk()).ran, []);
  await t.close();
});

test('out of attempts: the last one says failed; a rule without retry runs once as before', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', rule({ max_attempts: 2, backoff: { initial_ms: 1000 } }));
  await t.post('/api/events', { ...rule(undefined), type: 'loop:detected' });
  const first = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body;
  const plain = first.fired.find((f: { attempt?: number }) => f.attempt === undefined);
  assert.equal(Object.keys(plain).sort(), ['configured_event_id', 'error', 'ok', 'tool']);
  clock.advance(1000);
  await t.runtime.retries.walk();
  const fired = (await traceOf(t, first.event.id)).fired;
  assert.is(fired.length, 3);
  assert.is(fired[2].attempt, 2);
  assert.is(fired[2].outcome, 'failed');
  clock.advance(3_600_000);
  assert.equal((await t.runtime.retries.walk()).ran, []);
  await t.close();
});

test('arguments that do not fit are not retried; a deleted rule cancels its retry', async () => {
  const clock = new FakeClock();
  const t = await open(clock);
  await t.post('/api/events', {
    type: 'webhook:deploy',
    retry: { max_attempts: 3, backoff: { initial_ms: 1000 } },
    tool_calls: [{ tool: 'quests.create', args: { title: '{{event.content.n}}' } }],
  });
  const bad = (await t.post('/api/events/trigger', { type: 'webhook:deploy', content: { n: 5 } })).body;
  assert.is(bad.fired[0].outcome, 'failed');
  assert.is(bad.fired[0].next_attempt_at, undefined);

  const cfg = (await t.post('/api/events', rule({ max_attempts: 3, backoff: { initial_ms: 1000 } }))).body.event;
  const first = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body;
  await t.del(`/api/events/${cfg.id}`);
  clock.advance(1000);
  await t.runtime.retries.walk();
  const last = (await traceOf(t, first.event.id)).fired.at(-1);
  assert.is(last.outcome, 'cancelled');
  assert.match(last.error, /deleted/);
  await t.close();
});

test('retries survive a restart; an attempt a stop cut short is not run again (interrupted)', async () => {
  const clock = new FakeClock();
  const dataDir = tempDir('svc-retries');
  let t = await open(clock, { storage: 'file', dataDir });
  await t.post('/api/events', rule({ max_attempts: 3, backoff: { initial_ms: 1000 } }));
  const one = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body;
  const two = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body;
  await t.post('/api/agents', { name: 'Rita', role: 'reviewer' });
  await t.close();

  // The daemon "died" while running event two's retry: its claim is on disk, its result is not.
  const stores = await openJournalRuntimeStores(companyDataDir(dataDir, 'cmp_test'));
  clock.advance(1000);
  const [due2] = (await stores.retries.due(clock.now(), 10)).filter((r) => r.event_id === two.event.id);
  assert.ok(await stores.retries.claim(due2!.id, 2, clock.now(), 10 * 60_000));
  await stores.close();

  t = await open(clock, { storage: 'file', dataDir });
  await t.runtime.retries.walk(); // after the start walk: event one's retry ran
  let fired = (await traceOf(t, one.event.id)).fired;
  assert.equal([fired[1].attempt, fired[1].ok, fired[1].outcome], [2, true, 'succeeded']);
  assert.is((await traceOf(t, two.event.id)).fired.length, 1, 'still within its lease: left alone');
  clock.advance(10 * 60_000);
  await t.runtime.retries.walk();
  fired = (await traceOf(t, two.event.id)).fired;
  assert.equal([fired[1].attempt, fired[1].outcome], [2, 'interrupted']);
  assert.match(fired[1].error, /not run again/);
  clock.advance(3_600_000);
  assert.equal((await t.runtime.retries.walk()).ran, [], 'never re-run');
  await t.close();
});

test.run();
