import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';
import { createEmitterRegistry, RUNTIME_EMITTERS } from '../../../../daemon/company/bus/emitters.js';
import { exactMatcher } from '../../../../daemon/company/bus/matchers.js';

test('POST /api/events creates a configured event → { ok, event } with status active', async () => {
  const t = await createRuntimeTestApp();
  const res = await t.post('/api/events', {
    type: 'session:start',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Say hi' } }],
  });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  const e = res.body.event;
  assert.match(e.id, /^cev_/);
  assert.is(e.type, 'session:start');
  assert.is(e.status, 'active');
  assert.is(e.enabled, true);
  assert.equal(e.tool_calls, [{ tool: 'quests.create', args: { title: 'Say hi' } }]);
  assert.is(e.agent_id, null);
});

test('enabled:false is paused; enable, disable and delete over REST', async () => {
  const t = await createRuntimeTestApp();
  const e = (await t.post('/api/events', { type: 'session:stopped', tool_calls: [], enabled: false })).body.event;
  assert.is(e.status, 'paused');
  assert.is((await t.post(`/api/events/${e.id}/enable`)).body.event.status, 'active');
  assert.is((await t.post(`/api/events/${e.id}/disable`)).body.event.status, 'paused');
  const del = await t.del(`/api/events/${e.id}`);
  assert.is(del.status, 200);
  assert.is(del.body.ok, true);
  assert.is((await t.get(`/api/events/${e.id}`)).status, 404);
  assert.is((await t.del(`/api/events/${e.id}`)).body.code, 'event_not_found');
  assert.is((await t.post('/api/events/cev_nope/enable')).status, 404);
});

test('a known prefix with no emitter is stored and shown as armed, and never fires', async () => {
  // Every prefix has an emitter in the daemon's registry: a registry without `webhook` plays one that has none.
  const t = await createRuntimeTestApp({ runtime: { emitters: createEmitterRegistry(RUNTIME_EMITTERS) } });
  const e = (
    await t.post('/api/events', {
      type: 'webhook:github',
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    })
  ).body.event;
  assert.is(e.status, 'armed');
  assert.is((await t.post(`/api/events/${e.id}/disable`)).body.event.status, 'armed', 'armed wins over paused');
  await t.post(`/api/events/${e.id}/enable`);
  const trig = await t.post('/api/events/trigger', { type: 'webhook:github', content: { action: 'opened' } });
  assert.is(trig.status, 200);
  assert.equal(trig.body.fired, []);
  assert.equal((await t.get('/api/quests')).body.quests, []);
});

test('a dotted name is refused with a 400 explaining that dotted names are not patterns', async () => {
  const t = await createRuntimeTestApp();
  for (const type of ['agent.spawned', 'quest.assigned', 'idea.tagged']) {
    const res = await t.post('/api/events', { type, tool_calls: [] });
    assert.is(res.status, 400, type);
    assert.is(res.body.code, 'dotted_event_name');
    assert.match(res.body.error, /dotted names are not patterns/);
  }
  assert.is((await t.post('/api/events/trigger', { type: 'agent.spawned' })).body.code, 'dotted_event_name');
});

test('an unknown prefix is stored armed (spec §3.5); a malformed prefix, unknown tools and bad tool args are 400s', async () => {
  const t = await createRuntimeTestApp();
  const armed = await t.post('/api/events', { type: 'cron:tick', tool_calls: [] });
  assert.is(armed.status, 201);
  assert.is(armed.body.event.status, 'armed');
  assert.is((await t.post('/api/events', { type: 'Cron Tick:x', tool_calls: [] })).body.code, 'invalid_event_pattern');
  const tool = await t.post('/api/events', { type: 'session:start', tool_calls: [{ tool: 'rm -rf', args: {} }] });
  assert.is(tool.body.code, 'unknown_tool');
  assert.match(tool.body.error, /quests\.create/);
  const args = await t.post('/api/events', {
    type: 'session:start',
    tool_calls: [{ tool: 'message_to', args: { to: 'writer' } }],
  });
  assert.is(args.status, 400);
  assert.is(args.body.code, 'invalid_tool_args');
  assert.match(args.body.error, /tool_calls\.0\.args\.text/);
  assert.is((await t.post('/api/events', { tool_calls: [] })).status, 400);
  // A misspelt or unsupported key on a tool call is refused (as the MCP tool does), not dropped:
  // a rule saved without the part its author wrote would fire differently from what they meant.
  const extra = await t.post('/api/events', {
    type: 'session:start',
    tool_calls: [{ tool: 'quests.create', args: { title: 'x' }, delay_ms: 5000 }],
  });
  assert.is(extra.status, 400);
  assert.is(extra.body.code, 'validation_failed');
  assert.match(extra.body.error, /delay_ms/);
  assert.equal(
    (await t.get('/api/events?configured=true')).body.events.filter(
      (e: { type: string }) => e.type === 'session:start',
    ),
    [],
  );
  assert.is(
    (await t.post('/api/events', { type: 'session:start', agent_id: 'agt_nope' })).body.code,
    'agent_not_found',
  );
});

test('matchers: with the exact-only hook, predicated and window are refused; nonsense is a 400', async () => {
  const t = await createRuntimeTestApp({ runtime: { matcher: exactMatcher } });
  const ok = await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [],
    matcher: { kind: 'exact', agent_id: 'agt_1' },
  });
  assert.is(ok.status, 201);
  assert.equal(ok.body.event.matcher, { kind: 'exact', agent_id: 'agt_1' });
  const pred = await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [],
    matcher: { kind: 'predicated', field: 'text', regex: 'x' },
  });
  assert.is(pred.status, 400);
  assert.is(pred.body.code, 'matcher_unsupported');
  const win = await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [],
    matcher: { kind: 'window', count: 3, within_ms: 1000 },
  });
  assert.is(win.body.code, 'matcher_unsupported');
  assert.is(
    (await t.post('/api/events', { type: 'loop:detected', matcher: { kind: 'fuzzy' } })).body.code,
    'validation_failed',
  );
});

test('GET /api/events?configured=true lists configured events with the same filters', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  await t.post('/api/events', { type: 'session:start', agent_id: agent.id });
  await t.post('/api/events', { type: 'session:stopped' });
  const all = (await t.get('/api/events?configured=true')).body;
  assert.is(all.events.length, 2);
  assert.is((await t.get(`/api/events?configured=true&agent_id=${agent.id}`)).body.events.length, 1);
  assert.is(
    (await t.get('/api/events?configured=true&event_type=session:stopped')).body.events[0].type,
    'session:stopped',
  );
});

test('PATCH /api/events/:id extends a seeded marker with tool calls', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const s = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  const marker = (await t.get(`/api/events?configured=true&session_id=${s.id}&event_type=session:stopped`)).body
    .events[0];
  const res = await t.patch(`/api/events/${marker.id}`, {
    tool_calls: [{ tool: 'quests.create', args: { title: 'Write the summary' } }],
  });
  assert.is(res.status, 200);
  await t.post(`/api/sessions/${s.id}/stop`);
  assert.equal(
    (await t.get('/api/quests')).body.quests.map((q: any) => q.title),
    ['Write the summary'],
  );
});

test.run();
