import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

const trigger = (t: RuntimeTestApp, key: string | null, body: unknown) =>
  t.request({
    method: 'POST',
    url: '/api/events/trigger',
    headers: { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) },
    payload: JSON.stringify(body),
  });

const rule = { type: 'loop:detected', tool_calls: [{ tool: 'quests.create', args: { title: 'once' } }] };

test('a repeat with the same Idempotency-Key answers the first answer and fires nothing', async () => {
  const t = await createRuntimeTestApp();
  await t.post('/api/events', rule);
  const first = await trigger(t, 'k-1', { type: 'loop:detected', content: { n: 1 } });
  const again = await trigger(t, 'k-1', { type: 'loop:detected', content: { n: 1 } });
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  assert.is(again.headers['idempotent-replayed'], 'true');
  assert.is((await t.get('/api/quests')).body.quests.length, 1);
  assert.is((await t.get('/api/events?event_type=loop:detected')).body.events.length, 1);
  // Concurrent repeats: one runs, the other waits and gets its answer.
  const [a, b] = await Promise.all([
    trigger(t, 'k-2', { type: 'loop:detected' }),
    trigger(t, 'k-2', { type: 'loop:detected' }),
  ]);
  assert.equal(a.body, b.body);
  assert.is((await t.get('/api/quests')).body.quests.length, 2);
  // Without a key every call fires.
  await trigger(t, null, { type: 'loop:detected' });
  assert.is((await t.get('/api/quests')).body.quests.length, 3);
});

test('the same key with another request is a 409; a bad key a 400; after 24 h the key is new again', async () => {
  const clock = new FakeClock();
  const t = await createRuntimeTestApp({ clock });
  await t.post('/api/events', rule);
  await trigger(t, 'k', { type: 'loop:detected', content: { n: 1 } });
  const other = await trigger(t, 'k', { type: 'loop:detected', content: { n: 2 } });
  assert.is(other.status, 409);
  assert.is(other.body.code, 'idempotency_key_reused');
  assert.is((await trigger(t, 'has space', { type: 'loop:detected' })).status, 400);
  clock.advance(24 * 3600_000 + 1);
  const later = await trigger(t, 'k', { type: 'loop:detected', content: { n: 1 } });
  assert.is(later.headers['idempotent-replayed'], undefined);
  assert.is((await t.get('/api/quests')).body.quests.length, 2);
});

test('a refused request is not remembered: fixed and resent under the same key, it runs', async () => {
  const t = await createRuntimeTestApp();
  assert.is((await trigger(t, 'k', { type: 'agent.spawned' })).status, 400);
  assert.is((await trigger(t, 'k', { type: 'loop:detected' })).status, 200);
});

test('after a restart a repeat is still answered, never re-fired', async () => {
  const clock = new FakeClock();
  const first = await createRuntimeTestApp({ clock, storage: 'file' });
  await first.post('/api/events', rule);
  const answer = (await trigger(first, 'restart-1', { type: 'loop:detected' })).body;
  await first.close();
  const second = await createRuntimeTestApp({ clock, storage: 'file', dataDir: first.dataDir });
  const again = await trigger(second, 'restart-1', { type: 'loop:detected' });
  assert.equal(again.body, answer);
  assert.is((await second.get('/api/quests')).body.quests.length, 1);
  await second.close();
});

test.run();
