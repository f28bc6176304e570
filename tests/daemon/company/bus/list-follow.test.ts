import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

const SPEC_FIELDS = ['agent_id', 'content', 'created_at', 'id', 'quest_id', 'session_id', 'type'];

test('GET /api/events → { events: [rows of spec §2.1], next_since_id }, oldest first', async () => {
  const t = await createRuntimeTestApp();
  await t.post('/api/events/trigger', { type: 'session:custom', content: { n: 1 } });
  await t.post('/api/events/trigger', { type: 'session:custom', content: { n: 2 } });
  const res = await t.get('/api/events');
  assert.is(res.status, 200);
  assert.equal(
    res.body.events.map((e: any) => e.content.n),
    [1, 2],
  );
  for (const f of SPEC_FIELDS) assert.ok(f in res.body.events[0], f);
  assert.is(res.body.next_since_id, null);
  assert.is(res.body.cursor, res.body.events[1].id);
});

test('since_id pages through the API exactly (no gaps, no repeats)', async () => {
  const t = await createRuntimeTestApp();
  for (let i = 0; i < 23; i++) await t.post('/api/events/trigger', { type: 'session:custom', content: { i } });
  const seen: number[] = [];
  let url = '/api/events?limit=5';
  for (;;) {
    const page = (await t.get(url)).body;
    seen.push(...page.events.map((e: any) => e.content.i));
    if (!page.next_since_id) break;
    url = `/api/events?limit=5&since_id=${page.next_since_id}`;
  }
  assert.equal(
    seen,
    Array.from({ length: 23 }, (_, i) => i),
  );
});

test('filters: event_type, agent_id, since; bad query values are 400s', async () => {
  const t = await createRuntimeTestApp();
  await t.post('/api/events/trigger', { type: 'session:custom', agent_id: 'agt_1' });
  t.clock.advance(60_000);
  const later = new Date(t.clock.now()).toISOString();
  await t.post('/api/events/trigger', { type: 'session:other', agent_id: 'agt_2' });
  assert.is((await t.get('/api/events?event_type=session:custom')).body.events.length, 1);
  assert.is((await t.get('/api/events?agent_id=agt_2')).body.events[0].type, 'session:other');
  assert.is((await t.get(`/api/events?since=${later}`)).body.events.length, 1);
  assert.is((await t.get('/api/events?since=yesterday')).status, 400);
  assert.is((await t.get('/api/events?limit=0')).status, 400);
  assert.is((await t.get('/api/events?limit=1001')).status, 400);
  assert.is((await t.get('/api/events?wait=3600')).status, 400);
  const refused = await t.services.events.list({ since: 'yesterday' }).then(
    () => null,
    (e: Error) => e,
  );
  assert.match(refused?.message ?? '', /since must be an ISO 8601 timestamp/);
});

test('an empty page still carries a cursor to follow from', async () => {
  const t = await createRuntimeTestApp();
  assert.equal((await t.get('/api/events')).body, { events: [], next_since_id: null, cursor: null });
  const e = (await t.post('/api/events/trigger', { type: 'session:custom' })).body.event;
  assert.is((await t.get('/api/events?event_type=session:none')).body.cursor, e.id);
});

test('long-poll: wait holds the request until a new matching event arrives', async () => {
  const t = await createRuntimeTestApp();
  const first = (await t.post('/api/events/trigger', { type: 'session:custom' })).body.event;
  const pending = t.get(`/api/events?since_id=${first.id}&event_type=session:wanted&wait=30`);
  let answered = false;
  void pending.then(() => (answered = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  await t.services.events.emit({ type: 'session:unrelated' });
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  assert.is(answered, false, 'a non-matching event does not wake it');
  const wanted = await t.services.events.emit({ type: 'session:wanted', content: { hello: true } });
  const res = await pending;
  assert.is(res.status, 200);
  assert.equal(
    res.body.events.map((e: any) => e.id),
    [wanted.event.id],
  );
  assert.is(res.body.cursor, wanted.event.id);
});

test('a shutdown releases pending long-polls at once, with an empty page and a cursor', async () => {
  const t = await createRuntimeTestApp();
  const first = (await t.post('/api/events/trigger', { type: 'session:custom' })).body.event;
  const pending = t.get(`/api/events?since_id=${first.id}&wait=60`);
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  t.services.events.releaseWaiters();
  const res = await pending;
  assert.equal(res.body, { events: [], next_since_id: null, cursor: first.id });
});

test('GET /api/events/:id shows a configured event or a logged occurrence', async () => {
  const t = await createRuntimeTestApp();
  const cfg = (await t.post('/api/events', { type: 'session:stopped' })).body.event;
  const occ = (await t.post('/api/events/trigger', { type: 'session:stopped' })).body.event;
  assert.is((await t.get(`/api/events/${cfg.id}`)).body.event.status, 'active');
  assert.is((await t.get(`/api/events/${occ.id}`)).body.event.created_at, occ.created_at);
});

test.run();
