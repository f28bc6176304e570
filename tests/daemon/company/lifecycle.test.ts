import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LIFECYCLE_PATTERNS } from '../../../shared/patterns.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../helpers/runtime-app.js';

async function session(t: RuntimeTestApp, extra: Record<string, unknown> = {}) {
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  return (await t.post('/api/sessions', { agent_id: agent.id, ...extra })).body.session;
}
const typesOf = async (t: RuntimeTestApp, sessionId: string) =>
  ((await t.get(`/api/events?session_id=${sessionId}`)).body.events as { type: string }[]).map((e) => e.type);

test('creating a session seeds the nine lifecycle patterns and emits session:start once', async () => {
  const t = await createRuntimeTestApp();
  const s = await session(t);
  const seeded = (await t.get(`/api/events?configured=true&session_id=${s.id}`)).body.events;
  assert.equal(seeded.map((e: any) => e.type).sort(), [...LIFECYCLE_PATTERNS].sort());
  for (const e of seeded) {
    assert.equal(e.tool_calls, []);
    assert.is(e.status, 'active');
    assert.is(e.session_id, s.id);
  }
  assert.equal(await typesOf(t, s.id), ['session:start']);
  const start = (await t.get(`/api/events?session_id=${s.id}`)).body.events[0];
  assert.equal(Object.keys(start).sort(), [
    'agent_id',
    'causation_id',
    'content',
    'correlation_id',
    'created_at',
    'id',
    'quest_id',
    'session_id',
    'source',
    'type',
  ]);
  assert.is(start.agent_id, s.agent_id);
});

test('turns: execution_start each turn, step_start each step, first_execution_complete only once', async () => {
  const t = await createRuntimeTestApp();
  const s = await session(t);
  await t.post(`/api/sessions/${s.id}/messages`, { text: 'go', start_turn: true });
  await t.post(`/api/sessions/${s.id}/steps`);
  await t.post(`/api/sessions/${s.id}/steps`);
  await t.post(`/api/sessions/${s.id}/turns/complete`);
  await t.post(`/api/sessions/${s.id}/turns`);
  await t.post(`/api/sessions/${s.id}/turns/complete`);
  assert.equal(await typesOf(t, s.id), [
    'session:start',
    'session:execution_start',
    'session:step_start',
    'session:step_start',
    'session:first_execution_complete',
    'session:execution_start',
  ]);
});

test('a quest picked up in a session emits quest_start; finishing it quest_end then quest_result', async () => {
  const t = await createRuntimeTestApp();
  const s = await session(t);
  const q = (await t.post('/api/quests', { title: 'ship', session_id: s.id })).body.quest;
  await t.patch(`/api/quests/${q.id}`, { status: 'in_progress' });
  await t.patch(`/api/quests/${q.id}`, { status: 'failed', result: { reason: 'blocked' } });
  const events = (await t.get(`/api/events?quest_id=${q.id}`)).body.events;
  assert.equal(
    events.map((e: any) => e.type),
    ['session:quest_start', 'session:quest_end', 'session:quest_result'],
  );
  assert.equal(events[2].content, { status: 'failed', result: { reason: 'blocked' } });
  assert.is(events[0].session_id, s.id);
  assert.is(events[0].agent_id, s.agent_id);
});

test('a quest outside any session emits no session lifecycle', async () => {
  const t = await createRuntimeTestApp();
  const q = (await t.post('/api/quests', { title: 'solo' })).body.quest;
  await t.patch(`/api/quests/${q.id}`, { status: 'done' });
  // Done without a result is the detectors' business, not the session lifecycle's.
  assert.equal(
    (await t.get('/api/events')).body.events.map((e: { type: string }) => e.type),
    ['agent:premature_completion'],
  );
});

test('stopping emits session:stopped once', async () => {
  const t = await createRuntimeTestApp();
  const s = await session(t);
  await t.post(`/api/sessions/${s.id}/stop`);
  await t.post(`/api/sessions/${s.id}/stop`);
  assert.equal(await typesOf(t, s.id), ['session:start', 'session:stopped']);
});

test('crossing the context budget emits context:budget:exceeded once per crossing', async () => {
  const t = await createRuntimeTestApp();
  const s = await session(t, { context_budget: 10 });
  await t.post(`/api/sessions/${s.id}/messages`, { text: '12345' });
  await t.post(`/api/sessions/${s.id}/messages`, { text: '123456' });
  await t.post(`/api/sessions/${s.id}/messages`, { text: 'more' });
  const events = (await t.get(`/api/events?session_id=${s.id}&event_type=context:budget:exceeded`)).body.events;
  assert.is(events.length, 1);
  assert.equal(events[0].content, { budget: 10, used: 11 });
});

test.run();
