import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey } from '../../helpers/keys.js';
import { ALL_TOOLS, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

const test = suite<{ t: McpTestApp }>('mcp tools against the real runtime');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

let nextId = 1;
/** tools/call through the endpoint; returns the CallToolResult. */
async function call(t: McpTestApp, name: string, args: unknown = {}) {
  const res = await t.mcp({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } });
  assert.is(res.status, 200);
  if (res.body.error) throw new Error(`JSON-RPC error ${res.body.error.code}: ${res.body.error.message}`);
  return res.body.result as { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
}

test('tools/list: the six tools and their four read-only halves, each with object JSON Schemas', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const tools = res.body.result.tools as { name: string; inputSchema: any }[];
  assert.equal(
    tools.map((x) => x.name),
    ALL_TOOLS,
  );
  for (const tool of tools as { name: string; inputSchema: any; outputSchema?: any }[]) {
    assert.is(tool.inputSchema.type, 'object', tool.name);
    assert.is(tool.inputSchema.additionalProperties, false, `${tool.name} is strict`);
    assert.is(tool.outputSchema?.type, 'object', tool.name);
  }
  const events = tools.find((x) => x.name === 'events')!;
  assert.equal(events.inputSchema.properties.action.enum, [
    'create',
    'update',
    'list',
    'enable',
    'disable',
    'delete',
    'trigger',
    'trace',
    'failures',
    'replay',
    'preview',
    'backfill',
    'get_budget',
    'set_budget',
  ]);
  assert.equal(events.inputSchema.required, ['action']);
});

test("whoami: the user and Company of the key, its maker's role and its scopes", async ({ t }) => {
  const r = await call(t, 'whoami');
  assert.not.ok(r.isError);
  assert.equal(r.structuredContent, {
    user: { id: t.owner.user.id, email: t.owner.user.email, tier: 'company' },
    company: { id: t.company.id, name: 'acme' },
    key_id: t.keys.secretId,
    role: 'owner',
    scopes: null,
    account_key: false,
  });
  assert.equal(JSON.parse(r.content[0]!.text), r.structuredContent);
  const both = await t.mcp(
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    { 'x-api-key': t.keys.account },
  );
  assert.is(both.body.result.structuredContent.account_key, true);
});

test('unknown tool: JSON-RPC -32602', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope', arguments: {} } });
  assert.is(res.body.error.code, -32602);
  assert.match(res.body.error.message, /Unknown tool: 'nope'/);
});

test('invalid arguments: an isError result naming the field', async ({ t }) => {
  const r = await call(t, 'events', { action: 'explode' });
  assert.ok(r.isError);
  assert.match(r.content[0]!.text, /Invalid arguments for tool 'events': action/);
  const missing = await call(t, 'events', { action: 'enable' });
  assert.ok(missing.isError);
  assert.match(missing.content[0]!.text, /Action 'enable' needs 'id'/);
  const wrongType = await call(t, 'quests', { action: 'create', title: 42 });
  assert.ok(wrongType.isError);
});

test('a service error (404) becomes an isError result with its message', async ({ t }) => {
  const r = await call(t, 'quests', { action: 'get', id: 'qst_missing' });
  assert.ok(r.isError);
  assert.match(r.content[0]!.text, /No quest qst_missing in this Company\./);
  const s = await call(t, 'sessions', { action: 'create', agent_id: 'agt_missing' });
  assert.ok(s.isError);
  assert.match(s.content[0]!.text, /No agent agt_missing in this Company/);
});

test("the runtime's pattern rules: an unknown prefix is stored armed; a malformed one or a dotted name is refused with its reason", async ({
  t,
}) => {
  const unknown = await call(t, 'events', { action: 'create', type: 'deploy:done', tool_calls: [] });
  assert.not.ok(unknown.isError, unknown.content[0]?.text);
  assert.is(unknown.structuredContent.event.status, 'armed');
  const malformed = await call(t, 'events', { action: 'create', type: 'Deploy Done:x', tool_calls: [] });
  assert.ok(malformed.isError);
  assert.match(malformed.content[0]!.text, /Deploy Done/);
  const dotted = await call(t, 'events', { action: 'trigger', type: 'agent.spawned' });
  assert.ok(dotted.isError);
  assert.match(dotted.content[0]!.text, /dotted name/);
  const badTool = await call(t, 'events', {
    action: 'create',
    type: 'session:stopped',
    tool_calls: [{ tool: 'rm.rf', args: {} }],
  });
  assert.match(badTool.content[0]!.text, /tool_calls\.0\.tool: unknown tool 'rm\.rf'/);
  // No tool calls: a marker, active because `question:` has an emitter.
  const marker = await call(t, 'events', { action: 'create', type: 'question:asked' });
  assert.not.ok(marker.isError, marker.content[0]?.text);
  assert.equal(marker.structuredContent.event.tool_calls, []);
  assert.is(marker.structuredContent.event.status, 'active');
});

test('every events action, and the quest a triggered event created is visible through quests', async ({ t }) => {
  const reviewer = (await call(t, 'agents', { action: 'create', name: 'Rita', role: 'reviewer' })).structuredContent
    .agent;
  const tool_calls = [
    { tool: 'quests.create', args: { title: 'Summarise the session' } },
    { tool: 'message_to', args: { to: 'reviewer', text: 'A session ended' } },
  ];
  const created = await call(t, 'events', { action: 'create', type: 'session:stopped', tool_calls });
  assert.not.ok(created.isError, created.content[0]?.text);
  const cev = created.structuredContent.event;
  assert.is(cev.status, 'active');
  assert.equal(cev.tool_calls, tool_calls);

  assert.is((await call(t, 'events', { action: 'disable', id: cev.id })).structuredContent.event.status, 'paused');
  const quiet = await call(t, 'events', { action: 'trigger', type: 'session:stopped' });
  assert.equal(quiet.structuredContent.fired, []);
  assert.is((await call(t, 'events', { action: 'enable', id: cev.id })).structuredContent.event.status, 'active');

  const fired = await call(t, 'events', { action: 'trigger', type: 'session:stopped', content: { reason: 'manual' } });
  const root = fired.structuredContent.event;
  assert.equal(root.content, { reason: 'manual' });
  assert.equal(
    fired.structuredContent.fired.map((f: any) => [f.tool, f.ok]),
    [
      ['quests.create', true],
      ['message_to', true],
    ],
  );
  const questId = fired.structuredContent.fired[0].result.id;
  assert.is(fired.structuredContent.fired[1].result.agent_id, reviewer.id);

  const quests = await call(t, 'quests', { action: 'list' });
  assert.equal(
    quests.structuredContent.quests.map((q: any) => [q.id, q.title, q.status]),
    [[questId, 'Summarise the session', 'open']],
  );
  assert.is((await call(t, 'quests', { action: 'get', id: questId })).structuredContent.quest.id, questId);

  // Creating a quest emits nothing (runtime.md); message_to opened the reviewer's session and started a turn.
  const log = await call(t, 'events', { action: 'list' });
  assert.equal(
    log.structuredContent.events.map((e: any) => e.type),
    ['session:stopped', 'session:stopped', 'session:start', 'session:execution_start'],
  );
  assert.is(log.structuredContent.next_since_id, null);
  assert.is(log.structuredContent.cursor, log.structuredContent.events[3].id);
  const page = await call(t, 'events', { action: 'list', limit: 1, since_id: root.id });
  assert.equal(
    page.structuredContent.events.map((e: any) => e.type),
    ['session:start'],
  );
  assert.is(page.structuredContent.next_since_id, page.structuredContent.events[0].id);

  // The reviewer's new session seeded its nine lifecycle markers, scoped to it; the Company's four
  // default schedules (paused) come with their next runs.
  const configured = (await call(t, 'events', { action: 'list', configured: true })).structuredContent.events;
  const schedules = configured.filter((e: any) => e.type.startsWith('schedule:'));
  assert.is(schedules.length, 4);
  assert.ok(schedules.every((e: any) => e.status === 'paused' && e.next_runs.length === 5));
  assert.equal(
    configured.filter((e: any) => e.session_id === null && !e.type.startsWith('schedule:')).map((e: any) => e.id),
    [cev.id],
  );
  assert.is(configured.length, 14);

  const trace = (await call(t, 'events', { action: 'trace', event_id: root.id })).structuredContent;
  assert.is(trace.event.id, root.id);
  assert.is(trace.fired.length, 2);
  assert.equal(
    trace.children.map((c: any) => [c.event.type, c.event.causation_id, c.event.correlation_id]),
    [
      ['session:start', root.id, root.id],
      ['session:execution_start', root.id, root.id],
    ],
  );

  const byId = await call(t, 'events', { action: 'trigger', id: cev.id });
  assert.equal(byId.structuredContent.event.content, { fired_configured_event: cev.id });
  assert.equal(
    byId.structuredContent.fired.map((f: any) => f.tool),
    ['quests.create', 'message_to'],
  );
  assert.is((await call(t, 'quests', { action: 'list' })).structuredContent.quests.length, 2);

  assert.equal((await call(t, 'events', { action: 'delete', id: cev.id })).structuredContent, {
    ok: true,
    id: cev.id,
    deleted: true,
  });
  const again = await call(t, 'events', { action: 'delete', id: cev.id });
  assert.ok(again.isError);
  assert.match(again.content[0]!.text, /No configured event/);
  const noEvent = await call(t, 'events', { action: 'trace', event_id: 'ev_nope' });
  assert.ok(noEvent.isError);
  assert.is(noEvent.content[0]!.text, "No event ev_nope in this Company's log.");
});

test("quests update, agents, sessions and message_to act on the key's Company", async ({ t }) => {
  const agent = (await call(t, 'agents', { action: 'create', name: 'Scout', role: 'research' })).structuredContent
    .agent;
  assert.equal(
    (await call(t, 'agents', { action: 'list' })).structuredContent.agents.map((a: any) => a.id),
    [agent.id],
  );
  const session = (await call(t, 'sessions', { action: 'create', agent_id: agent.id, context_budget: 500 }))
    .structuredContent.session;
  assert.is(session.status, 'active');
  assert.is(session.context_budget, 500);
  assert.is((await call(t, 'sessions', { action: 'get', id: session.id })).structuredContent.session.id, session.id);
  assert.is(
    (await call(t, 'sessions', { action: 'stop', id: session.id })).structuredContent.session.status,
    'stopped',
  );
  assert.is((await call(t, 'sessions', { action: 'list', status: 'active' })).structuredContent.sessions.length, 0);
  assert.ok((await call(t, 'sessions', { action: 'list', status: 'sleeping' })).isError);

  const quest = (await call(t, 'quests', { action: 'create', title: 'Write notes', agent_id: agent.id }))
    .structuredContent.quest;
  const updated = await call(t, 'quests', { action: 'update', id: quest.id, status: 'done', result: { pages: 3 } });
  assert.is(updated.structuredContent.quest.status, 'done');
  assert.equal(updated.structuredContent.quest.result, { pages: 3 });
  const reopened = await call(t, 'quests', { action: 'update', id: quest.id, status: 'open' });
  assert.ok(reopened.isError);
  assert.match(reopened.content[0]!.text, /done/);

  // The stopped session is not reused: message_to opens a new one for the agent.
  const sent = await call(t, 'message_to', { to: 'research', text: 'hello' });
  assert.is(sent.structuredContent.agent_id, agent.id);
  assert.is.not(sent.structuredContent.session_id, session.id);
  assert.ok((await call(t, 'message_to', { to: 'nobody', text: 'hello' })).isError);
  // The state lives in the key's Company runtime.
  const services = await t.services();
  assert.equal(
    (await services.quests.list()).map((q) => q.id),
    [quest.id],
  );
  assert.equal(
    (await services.sessions.get(sent.structuredContent.session_id))?.transcript.map((e) => e.text),
    ['hello'],
  );
});

test("a key reaches only its own Company: another owner's key sees none of it, and ids from it are not found", async ({
  t,
}) => {
  const quest = (await call(t, 'quests', { action: 'create', title: 'Private to acme' })).structuredContent.quest;
  const cev = (await call(t, 'events', { action: 'create', type: 'session:stopped', tool_calls: [] })).structuredContent
    .event;
  const other = await createUser(t, { tier: 'company' });
  const otherCo = await createCompany(t, other, 'globex');
  const otherKey = (await createSecretKey(t, other, otherCo.id)).key;
  const as = async (name: string, args: unknown) =>
    (
      await t.mcp(
        { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
        { authorization: `Bearer ${otherKey}` },
      )
    ).body.result;
  assert.is((await as('whoami', {})).structuredContent.company.id, otherCo.id);
  assert.equal((await as('quests', { action: 'list' })).structuredContent.quests, []);
  assert.ok((await as('quests', { action: 'get', id: quest.id })).isError);
  assert.ok((await as('events', { action: 'delete', id: cev.id })).isError);
  // globex sees only its own configured events (its default schedules), none of acme's.
  const theirs = (await as('events', { action: 'list', configured: true })).structuredContent.events;
  assert.ok(theirs.every((e: any) => e.type.startsWith('schedule:') && e.id !== cev.id));
  // Still there for acme's own key.
  assert.ok(
    (await call(t, 'events', { action: 'list', configured: true })).structuredContent.events.some(
      (e: any) => e.id === cev.id,
    ),
  );
});

test.run();
