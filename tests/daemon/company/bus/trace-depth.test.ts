import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { createEmitterRegistry } from '../../../../daemon/company/bus/emitters.js';
import type { ToolDefinition } from '../../../../daemon/company/bus/tools.js';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

const emitters = () => createEmitterRegistry(['session', 'context', 'loop']);

/** A tool that emits its own event's pattern again: the shortest possible causation loop. */
const echo: ToolDefinition = {
  name: 'test.echo',
  description: 'emits the same pattern again',
  args: z.object({}),
  run: async (_args, { emit, event }) => (await emit({ type: event.type, caused_by: event.id })).event.id,
};

test('trace: event → fired → children, down to the leaves, sharing one correlation id', async () => {
  const t = await createRuntimeTestApp({ runtime: { emitters: emitters() } });
  const agent = (await t.post('/api/agents', { name: 'A', role: 'ops' })).body.agent;
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'look' } },
      { tool: 'message_to', args: { to: 'ops', text: 'a loop' } },
    ],
  });
  const root = (await t.post('/api/events/trigger', { type: 'loop:detected', agent_id: agent.id })).body.event;
  const res = await t.get(`/api/events/trace?event_id=${root.id}`);
  assert.is(res.status, 200);
  const tree = res.body;
  assert.is(tree.event.id, root.id);
  assert.equal(
    tree.fired.map((f: any) => [f.tool, f.ok]),
    [
      ['quests.create', true],
      ['message_to', true],
    ],
  );
  // message_to opened a session (session:start) and started a turn (session:execution_start).
  assert.equal(
    tree.children.map((c: any) => c.event.type),
    ['session:start', 'session:execution_start'],
  );
  for (const child of tree.children) {
    assert.is(child.event.causation_id, root.id);
    assert.is(child.event.correlation_id, root.id);
    assert.equal(child.children, []);
    assert.equal(child.fired, [], 'seeded markers have no tool calls');
  }
  const viaPost = await t.post('/api/events/trace', { event_id: root.id });
  assert.equal(viaPost.body, tree);
});

test('trace of an unknown event is a 404; a missing event_id is a 400', async () => {
  const t = await createRuntimeTestApp();
  assert.is((await t.get('/api/events/trace?event_id=ev_nope')).body.code, 'event_not_found');
  assert.is((await t.get('/api/events/trace')).status, 400);
  assert.is((await t.post('/api/events/trace', {})).status, 400);
});

test('depth guard: a configured event that causes its own pattern stops at the limit, recorded', async () => {
  const t = await createRuntimeTestApp({ runtime: { emitters: emitters(), tools: [echo], maxDepth: 5 } });
  await t.post('/api/events', { type: 'loop:detected', tool_calls: [{ tool: 'test.echo', args: {} }] });
  const res = await t.post('/api/events/trigger', { type: 'loop:detected' });
  assert.is(res.status, 200);
  const all = (await t.get('/api/events?event_type=loop:detected')).body.events;
  assert.is(all.length, 6, 'the root and five descendants, then the guard');
  let node = (await t.get(`/api/events/trace?event_id=${res.body.event.id}`)).body;
  let depth = 0;
  while (node.children.length) {
    assert.ok(node.fired[0].ok);
    node = node.children[0];
    depth++;
  }
  assert.is(depth, 5);
  assert.is(node.fired.length, 1);
  assert.is(node.fired[0].ok, false);
  assert.is(node.fired[0].skipped, 'depth_limit');
  assert.match(node.fired[0].error, /limit is 5/);
});

test('depth guard stops a loop through real tools (stop a session on each turn, message on each stop)', async () => {
  const t = await createRuntimeTestApp({ runtime: { emitters: emitters() } });
  const agent = (await t.post('/api/agents', { name: 'A' })).body.agent;
  await t.post('/api/events', {
    type: 'session:execution_start',
    tool_calls: [{ tool: 'sessions.update', args: { status: 'stopped' } }],
  });
  await t.post('/api/events', {
    type: 'session:stopped',
    tool_calls: [{ tool: 'message_to', args: { to: agent.id, text: 'again' } }],
  });
  const res = await t.post('/api/messages', { to: agent.id, text: 'start' });
  assert.is(res.status, 200);
  const sessions = (await t.get('/api/sessions')).body.sessions;
  assert.ok(sessions.length > 1 && sessions.length < 10, `a bounded number of sessions: ${sessions.length}`);
  const stops = (await t.get('/api/events?event_type=session:stopped')).body.events;
  const last = (await t.get(`/api/events/trace?event_id=${stops.at(-1).id}`)).body;
  const guarded = [last, ...last.children].flatMap((n: any) => n.fired).filter((f: any) => f.skipped === 'depth_limit');
  assert.ok(guarded.length >= 1, 'the stop is recorded on the deepest event');
});

test.run();
