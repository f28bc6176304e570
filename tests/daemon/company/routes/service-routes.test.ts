import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

test('POST /api/agents → { ok, agent: { id, name, role } }; list and get', async () => {
  const t = await createRuntimeTestApp();
  const res = await t.post('/api/agents', { name: 'Ada', role: 'writer' });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  assert.is(res.body.agent.name, 'Ada');
  assert.is(res.body.agent.role, 'writer');
  assert.match(res.body.agent.id, /^agt_/);
  const noRole = await t.post('/api/agents', { name: 'Bob' });
  assert.is(noRole.body.agent.role, null);
  assert.is((await t.get('/api/agents')).body.agents.length, 2);
  assert.is((await t.get(`/api/agents/${res.body.agent.id}`)).body.agent.name, 'Ada');
  const missing = await t.get('/api/agents/agt_nope');
  assert.is(missing.status, 404);
  assert.is(missing.body.code, 'agent_not_found');
});

test('bad agent input is a 400 naming the field', async () => {
  const t = await createRuntimeTestApp();
  const res = await t.post('/api/agents', { name: '' });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'validation_failed');
  assert.match(res.body.error, /^name/);
  assert.is((await t.post('/api/agents', [1, 2])).status, 400);
});

test('POST /api/sessions → { ok, session: { id, agent_id, status } }', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const res = await t.post('/api/sessions', { agent_id: agent.id, gateway_channel_id: 'slack:C1' });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  assert.match(res.body.session.id, /^ses_/);
  assert.is(res.body.session.agent_id, agent.id);
  assert.is(res.body.session.status, 'active');
  assert.is(res.body.session.gateway_channel_id, 'slack:C1');
  assert.equal(res.body.session.transcript, []);
  const unknown = await t.post('/api/sessions', { agent_id: 'agt_nope' });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'agent_not_found');
  assert.is((await t.get(`/api/sessions?agent_id=${agent.id}`)).body.sessions.length, 1);
});

test('messages, turns, steps and stop; a stopped session refuses more with 409', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  const msg = await t.post(`/api/sessions/${s.id}/messages`, { text: 'hello', from: 'user' });
  assert.is(msg.body.session.transcript[0].text, 'hello');
  assert.is((await t.post(`/api/sessions/${s.id}/steps`)).status, 409);
  assert.is((await t.post(`/api/sessions/${s.id}/turns`)).body.session.turn_status, 'running');
  assert.is((await t.post(`/api/sessions/${s.id}/steps`)).status, 200);
  const done = await t.post(`/api/sessions/${s.id}/turns/complete`);
  assert.is(done.body.session.turns_completed, 1);
  const stopped = await t.post(`/api/sessions/${s.id}/stop`);
  assert.is(stopped.body.session.status, 'stopped');
  const again = await t.post(`/api/sessions/${s.id}/messages`, { text: 'late' });
  assert.is(again.status, 409);
  assert.is(again.body.code, 'session_stopped');
});

test('quests: create → { ok, quest }, list → { quests }, open → in_progress → done; done is final', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  const created = await t.post('/api/quests', { title: 'Write the launch post', session_id: s.id });
  assert.is(created.status, 201);
  assert.is(created.body.ok, true);
  const q = created.body.quest;
  assert.is(q.status, 'open');
  assert.is(q.agent_id, agent.id, 'the session brings its agent');
  assert.is(q.result, null);
  assert.is((await t.get('/api/quests')).body.quests.length, 1);
  assert.is((await t.patch(`/api/quests/${q.id}`, { status: 'in_progress' })).body.quest.status, 'in_progress');
  const done = await t.patch(`/api/quests/${q.id}`, { status: 'done', result: { url: 'https://x' } });
  assert.equal(done.body.quest.result, { url: 'https://x' });
  const back = await t.patch(`/api/quests/${q.id}`, { status: 'open' });
  assert.is(back.status, 409);
  assert.is(back.body.code, 'invalid_transition');
  assert.is((await t.get('/api/quests?status=done')).body.quests.length, 1);
  assert.is((await t.get('/api/quests?status=bogus')).status, 400);
});

test('a quest whose agent and session disagree is a 409; unknown ids are 404', async () => {
  const t = await createRuntimeTestApp();
  const a = (await t.post('/api/agents', { name: 'A' })).body.agent;
  const b = (await t.post('/api/agents', { name: 'B' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: a.id })).body.session;
  assert.is((await t.post('/api/quests', { title: 'x', agent_id: b.id, session_id: s.id })).status, 409);
  assert.is((await t.post('/api/quests', { title: 'x', session_id: 'ses_nope' })).body.code, 'session_not_found');
  assert.is((await t.patch('/api/quests/qst_nope', { status: 'done' })).body.code, 'quest_not_found');
});

test('an unknown runtime path is left to the app (404); a wrong method is a 405', async () => {
  const t = await createRuntimeTestApp();
  assert.is((await t.get('/api/nothing')).status, 404);
  assert.is((await t.del('/api/agents')).status, 405);
});

test('the answer to a message carries the newest 100 messages and the total; a read carries them all', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  let last: Awaited<ReturnType<typeof t.post>> | undefined;
  for (let i = 0; i < 105; i++) last = await t.post(`/api/sessions/${s.id}/messages`, { text: `m${i}`, from: 'user' });
  assert.is(last!.body.session.transcript.length, 100);
  assert.is(last!.body.session.transcript[0].text, 'm5');
  assert.is(last!.body.session.transcript[99].text, 'm104');
  assert.is(last!.body.session.transcript_total, 105);
  const read = await t.get(`/api/sessions/${s.id}`);
  assert.is(read.body.session.transcript.length, 105);
  assert.is(read.body.session.transcript_total, 105);
});

test.run();
