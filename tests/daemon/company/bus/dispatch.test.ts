import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import type { ToolDefinition } from '../../../../daemon/company/bus/tools.js';
import { createEmitterRegistry } from '../../../../daemon/company/bus/emitters.js';
import { createRuntimeTestApp as createApp } from '../../../helpers/runtime-app.js';

// `loop:` is a detector prefix: registered here as if its emitter were wired in.
const createRuntimeTestApp = (options: Parameters<typeof createApp>[0] = {}) =>
  createApp({
    ...options,
    runtime: { emitters: createEmitterRegistry(['session', 'context', 'loop']), ...options.runtime },
  });

test('trigger → { ok, event, fired: [ { configured_event_id, tool, ok, result } ] }', async () => {
  const t = await createRuntimeTestApp();
  const cfg = (
    await t.post('/api/events', {
      type: 'loop:detected',
      tool_calls: [{ tool: 'quests.create', args: { title: 'Break the loop' } }],
    })
  ).body.event;
  const res = await t.post('/api/events/trigger', { type: 'loop:detected', content: { n: 3 } });
  assert.is(res.status, 200);
  assert.is(res.body.ok, true);
  assert.is(res.body.event.type, 'loop:detected');
  assert.equal(res.body.event.content, { n: 3 });
  assert.is(res.body.fired.length, 1);
  const f = res.body.fired[0];
  assert.is(f.configured_event_id, cfg.id);
  assert.is(f.tool, 'quests.create');
  assert.is(f.ok, true);
  assert.is(f.result.title, 'Break the loop');
});

test('scope: a configured event for one agent ignores events about another', async () => {
  const t = await createRuntimeTestApp();
  const a = (await t.post('/api/agents', { name: 'A' })).body.agent;
  const b = (await t.post('/api/agents', { name: 'B' })).body.agent;
  await t.post('/api/events', {
    type: 'loop:detected',
    agent_id: a.id,
    tool_calls: [{ tool: 'quests.create', args: { title: 'for A' } }],
  });
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: 'exact B' } }],
    matcher: { kind: 'exact', agent_id: b.id },
  });
  assert.is((await t.post('/api/events/trigger', { type: 'loop:detected', agent_id: b.id })).body.fired.length, 1);
  assert.is(
    (await t.post('/api/events/trigger', { type: 'loop:detected', agent_id: a.id })).body.fired[0].result.title,
    'for A',
  );
  assert.is((await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired.length, 0);
});

test('a paused configured event does not fire on its pattern, but fires when triggered by id', async () => {
  const t = await createRuntimeTestApp();
  const cfg = (
    await t.post('/api/events', {
      type: 'loop:detected',
      enabled: false,
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    })
  ).body.event;
  assert.equal((await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired, []);
  const byId = await t.post('/api/events/trigger', { configured_event_id: cfg.id });
  assert.is(byId.body.event.type, 'loop:detected');
  assert.is(byId.body.fired[0].ok, true);
  assert.is((await t.post('/api/events/trigger', { configured_event_id: 'cev_nope' })).status, 404);
});

test('a deleted configured event stops firing; one created later fires', async () => {
  const t = await createRuntimeTestApp();
  const a = (
    await t.post('/api/events', {
      type: 'loop:detected',
      tool_calls: [{ tool: 'quests.create', args: { title: 'a' } }],
    })
  ).body.event;
  assert.is((await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired.length, 1);
  await t.del(`/api/events/${a.id}`);
  assert.equal((await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired, []);
  await t.post('/api/events', { type: 'loop:detected', tool_calls: [{ tool: 'quests.create', args: { title: 'b' } }] });
  assert.is((await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired[0].result.title, 'b');
});

test('fan-out isolation: a failing call is recorded, the others still run', async () => {
  const t = await createRuntimeTestApp();
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.update', args: { quest_id: 'qst_missing', status: 'done' } }],
  });
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'one' } },
      { tool: 'message_to', args: { to: 'nobody-role', text: 'hi' } },
    ],
  });
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: 'two' } }],
  });
  const res = await t.post('/api/events/trigger', { type: 'loop:detected' });
  assert.is(res.status, 200);
  const fired = res.body.fired as any[];
  assert.is(fired.length, 4);
  assert.equal(
    fired
      .filter((f) => !f.ok)
      .map((f) => f.tool)
      .sort(),
    ['message_to', 'quests.update'],
  );
  assert.match(fired.find((f) => f.tool === 'quests.update').error, /qst_missing/);
  assert.equal((await t.get('/api/quests')).body.quests.map((q: any) => q.title).sort(), ['one', 'two']);
});

test('the tool calls of all matching configured events run in parallel', async () => {
  let started = 0;
  let release!: () => void;
  const allStarted = new Promise<void>((r) => (release = r));
  const barrier: ToolDefinition = {
    name: 'test.barrier',
    description: 'waits until three calls are running at once',
    args: z.object({}),
    run: async () => {
      if (++started === 3) release();
      await allStarted; // with sequential dispatch this never resolves and the test times out
      return { started };
    },
  };
  const t = await createRuntimeTestApp({ runtime: { tools: [barrier] } });
  for (let i = 0; i < 3; i++)
    await t.post('/api/events', { type: 'loop:detected', tool_calls: [{ tool: 'test.barrier', args: {} }] });
  const res = await t.post('/api/events/trigger', { type: 'loop:detected' });
  assert.is(res.body.fired.length, 3);
  assert.ok(res.body.fired.every((f: any) => f.ok && f.result.started === 3));
});

test('message_to a role picks one of its agents, in turn; to an id reaches that agent', async () => {
  const t = await createRuntimeTestApp();
  const a = (await t.post('/api/agents', { name: 'A', role: 'support' })).body.agent;
  const b = (await t.post('/api/agents', { name: 'B', role: 'support' })).body.agent;
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [{ tool: 'message_to', args: { to: 'support', text: 'help' } }],
  });
  const first = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired[0].result;
  const second = (await t.post('/api/events/trigger', { type: 'loop:detected' })).body.fired[0].result;
  assert.equal([first.agent_id, second.agent_id].sort(), [a.id, b.id].sort());
  const session = (await t.get(`/api/sessions/${first.session_id}`)).body.session;
  assert.is(session.transcript[0].text, 'help');
  assert.is(session.turn_status, 'running');
  const direct = await t.post('/api/messages', { to: b.id, text: 'direct' });
  assert.is(direct.body.agent_id, b.id);
  assert.is(direct.body.session_id, second.session_id, 'lands in the agent’s active session');
});

test('sessions.update defaults to the event’s session and can stop it', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'A' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  await t.post('/api/events', {
    type: 'context:budget:exceeded',
    tool_calls: [{ tool: 'sessions.update', args: { append: { text: 'compacting' }, status: 'stopped' } }],
  });
  await t.post(`/api/sessions/${s.id}`, { context_budget: 3 });
  await t.post(`/api/sessions/${s.id}/messages`, { text: 'too long' });
  const after = (await t.get(`/api/sessions/${s.id}`)).body.session;
  assert.is(after.status, 'stopped');
  assert.is(after.transcript.at(-1).text, 'compacting');
});

test.run();
