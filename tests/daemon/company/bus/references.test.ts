import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkReferences, resolveReferences, resolveText } from '../../../../daemon/company/bus/references.js';
import type { EventRow } from '../../../../daemon/company/company-services.js';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

const event: EventRow = {
  id: 'evt_1',
  type: 'loop:detected',
  agent_id: 'agt_1',
  session_id: 'ses_1',
  quest_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  causation_id: null,
  correlation_id: 'evt_1',
  source: 'manual',
  content: { reason: 'stuck', count: 3, nested: { list: [1, 2] }, __proto__x: 1 },
};

test('resolve: exactly one reference keeps the JSON type; inside text it is inserted as text', () => {
  const out = resolveReferences(
    {
      n: '{{event.content.count}}',
      obj: '{{ event.content.nested }}',
      text: 'Session {{event.session_id}} is {{event.content.reason}} ({{event.content.count}})',
      arr: ['{{event.content.nested.list.1}}'],
      missing: '{{event.content.nope}}',
      inText: 'q={{event.quest_id}}.',
    },
    event,
  );
  assert.equal(out, {
    n: 3,
    obj: { list: [1, 2] },
    text: 'Session ses_1 is stuck (3)',
    arr: [2],
    missing: null,
    inText: 'q=.',
  });
});

test('resolve never reaches past own properties (no prototype walk), and runs no code', () => {
  assert.equal(resolveReferences({ a: '{{event.content.constructor}}', b: '{{event.content.reason.length}}' }, event), {
    a: null,
    b: null,
  });
});

test('check: unknown fields and non-event references are refused with the path; exact paths are listed', () => {
  assert.is(checkReferences({ t: 'x {{event.sesion_id}}' }).problem!.path, 't');
  assert.match(checkReferences({ t: '{{event.sesion_id}}' }).problem!.message, /unknown field 'sesion_id'/);
  assert.match(checkReferences({ t: '{{process.env}}' }).problem!.message, /only \{\{event\.<field>\}\}/);
  assert.match(checkReferences({ a: { b: ['{{event.content.a b}}'] } }).problem!.message, /content path/);
  assert.equal(checkReferences({ a: '{{event.content.x}}', b: 'see {{event.id}}' }), { problem: null, exact: [['a']] });
});

test("HTTP: a rule that uses its event — the title from content, the quest filed for the event's session", async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const session = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  const cfg = await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'Unstick {{event.session_id}}: {{event.content.reason}}' } },
      { tool: 'sessions.update', args: { context_budget: '{{event.content.budget}}' } },
    ],
  });
  assert.is(cfg.status, 201, JSON.stringify(cfg.body));
  const res = await t.post('/api/events/trigger', {
    type: 'loop:detected',
    session_id: session.id,
    content: { reason: 'same call 5 times', budget: 5000 },
  });
  const [quest, update] = res.body.fired;
  assert.is(quest.ok, true);
  assert.is(quest.result.title, `Unstick ${session.id}: same call 5 times`);
  assert.is(quest.result.session_id, session.id);
  assert.is(quest.result.agent_id, agent.id);
  assert.is(update.ok, true, update.error);
  assert.is(update.result.context_budget, 5000);
});

test('HTTP: an unknown field is a 400 when saved (create and update), naming the call and field', async () => {
  const t = await createRuntimeTestApp();
  const bad = await t.post('/api/events', {
    type: 'session:stopped',
    tool_calls: [{ tool: 'quests.create', args: { title: 'For {{event.sesion_id}}' } }],
  });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'invalid_event_reference');
  assert.match(bad.body.error, /^tool_calls\.0\.args\.title: '\{\{event\.sesion_id\}\}': unknown field/);
  const ok = (await t.post('/api/events', { type: 'session:stopped', tool_calls: [] })).body.event;
  const upd = await t.patch(`/api/events/${ok.id}`, {
    tool_calls: [{ tool: 'message_to', args: { to: 'ops', text: '{{event.content.x..y}}' } }],
  });
  assert.is(upd.status, 400);
  assert.is(upd.body.code, 'invalid_event_reference');
  // A typed field that is not a whole reference is still checked when saved.
  const typed = await t.post('/api/events', {
    type: 'session:stopped',
    tool_calls: [{ tool: 'sessions.update', args: { context_budget: 'about {{event.content.n}}' } }],
  });
  assert.is(typed.body.code, 'invalid_tool_args');
});

test('HTTP: a reference that resolves to the wrong type fails that call at dispatch, recorded in trace', async () => {
  const t = await createRuntimeTestApp();
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: '{{event.content.count}}', session_id: null } }],
  });
  const res = await t.post('/api/events/trigger', { type: 'loop:detected', content: { count: 3 } });
  assert.is(res.body.fired[0].ok, false);
  const trace = await t.get(`/api/events/trace?event_id=${res.body.event.id}`);
  assert.is(trace.body.fired[0].ok, false);
});

test('scoped default: an explicit null keeps the quest unowned; an agent-only event gives the agent', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  await t.post('/api/events', {
    type: 'loop:detected',
    tool_calls: [
      { tool: 'quests.create', args: { title: 'a' } },
      { tool: 'quests.create', args: { title: 'b', agent_id: null } },
    ],
  });
  const fired = (await t.post('/api/events/trigger', { type: 'loop:detected', agent_id: agent.id })).body.fired;
  assert.equal(
    fired.map((f: any) => [f.result.agent_id, f.result.session_id]),
    [
      [agent.id, null],
      [null, null],
    ],
  );
});

test('resolveText: the text a template resolves to, as resolveReferences gives it (an object or list as its JSON)', () => {
  const textOf = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
  const templates = [
    'plain',
    '{{event.agent_id}}',
    '{{ event.content.count }}',
    '{{event.content.nested}}',
    '{{event.content.nested.list}}',
    '{{event.quest_id}}',
    '{{event.content.nope}}',
    'agent {{event.agent_id}} / {{event.content.nested}} / {{event.quest_id}}!',
    '{{event.nope}} stays',
    '{{event.constructor}}',
    '{{event.content.__proto__}}',
  ];
  for (const template of templates)
    for (const e of [event, { ...event, agent_id: 'agt_2', content: null }]) {
      // Twice: the second answer comes from the parsed template kept by the first.
      assert.is(resolveText(template, e), textOf(resolveReferences(template, e)), template);
      assert.is(resolveText(template, e), textOf(resolveReferences(template, e)), template);
    }
  assert.is(resolveText('{{event.agent_id}}', { ...event, agent_id: 'agt_9' }), 'agt_9');
  // Two different objects are two flow-control buckets, not one "[object Object]".
  const a = resolveText('{{event.content}}', { ...event, content: { repo: 'a' } });
  const b = resolveText('{{event.content}}', { ...event, content: { repo: 'b' } });
  assert.is(a, '{"repo":"a"}');
  assert.is.not(a, b);
});

test.run();
