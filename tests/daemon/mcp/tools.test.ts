import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMcpTestApp, MCP_COMPANY, type McpTestApp } from '../../helpers/mcp-app.js';

const test = suite<{ t: McpTestApp }>('mcp tools');
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

test('tools/list: the six tools, each with an object JSON Schema', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const tools = res.body.result.tools as { name: string; inputSchema: any }[];
  assert.equal(tools.map((x) => x.name), ['whoami', 'events', 'quests', 'agents', 'sessions', 'message_to']);
  for (const tool of tools) assert.is(tool.inputSchema.type, 'object', tool.name);
  const events = tools.find((x) => x.name === 'events')!;
  assert.equal(events.inputSchema.properties.action.enum, ['create', 'list', 'enable', 'disable', 'delete', 'trigger', 'trace']);
  assert.equal(events.inputSchema.required, ['action']);
});

test('whoami: the user and Company of the key', async ({ t }) => {
  const r = await call(t, 'whoami');
  assert.not.ok(r.isError);
  assert.equal(r.structuredContent, { user: { id: 'usr_test', email: 'ada@example.com', tier: 'company' }, company: { id: MCP_COMPANY.id, name: 'acme' }, key_id: 'key_test', account_key: false });
  assert.equal(JSON.parse(r.content[0]!.text), r.structuredContent);
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
  assert.match(r.content[0]!.text, /No quest with id 'qst_missing'/);
  const s = await call(t, 'sessions', { action: 'create', agent_id: 'agt_missing' });
  assert.ok(s.isError);
});

test('every events action, and the quest a triggered event created is visible through quests', async ({ t }) => {
  const created = await call(t, 'events', { action: 'create', type: 'deploy:done', tool_calls: [{ tool: 'quests.create', args: { title: 'Check the deploy' } }] });
  assert.not.ok(created.isError, created.content[0]?.text);
  const cev = created.structuredContent.event;
  assert.is(cev.status, 'active');

  assert.is((await call(t, 'events', { action: 'disable', id: cev.id })).structuredContent.event.status, 'paused');
  const quiet = await call(t, 'events', { action: 'trigger', type: 'deploy:done' });
  assert.equal(quiet.structuredContent.fired, []);
  assert.is((await call(t, 'events', { action: 'enable', id: cev.id })).structuredContent.event.status, 'active');

  const fired = await call(t, 'events', { action: 'trigger', type: 'deploy:done', content: { version: '1.2' } });
  assert.is(fired.structuredContent.fired.length, 1);
  assert.ok(fired.structuredContent.fired[0].ok);
  const questId = fired.structuredContent.fired[0].result.id;

  const quests = await call(t, 'quests', { action: 'list' });
  assert.equal(quests.structuredContent.quests.map((q: any) => q.title), ['Check the deploy']);
  assert.is((await call(t, 'quests', { action: 'get', id: questId })).structuredContent.quest.id, questId);

  const log = await call(t, 'events', { action: 'list' });
  assert.equal(log.structuredContent.events.map((e: any) => e.type), ['deploy:done', 'deploy:done', 'quest:created']);
  const configured = await call(t, 'events', { action: 'list', configured: true });
  assert.equal(configured.structuredContent.events.map((e: any) => e.id), [cev.id]);

  const trace = await call(t, 'events', { action: 'trace', event_id: fired.structuredContent.event.id });
  assert.equal(trace.structuredContent.children.map((c: any) => c.event.type), ['quest:created']);

  const byId = await call(t, 'events', { action: 'trigger', id: cev.id });
  assert.is(byId.structuredContent.fired[0].tool, 'quests.create');

  assert.equal((await call(t, 'events', { action: 'delete', id: cev.id })).structuredContent, { ok: true, deleted: cev.id });
  assert.ok((await call(t, 'events', { action: 'delete', id: cev.id })).isError);
  assert.ok((await call(t, 'events', { action: 'trace', event_id: 'evt_nope' })).isError);
});

test('quests update, agents, sessions and message_to act on the key\'s Company', async ({ t }) => {
  const agent = (await call(t, 'agents', { action: 'create', name: 'Scout', role: 'research' })).structuredContent.agent;
  assert.equal((await call(t, 'agents', { action: 'list' })).structuredContent.agents.map((a: any) => a.id), [agent.id]);
  const session = (await call(t, 'sessions', { action: 'create', agent_id: agent.id })).structuredContent.session;
  assert.is(session.status, 'active');
  assert.is((await call(t, 'sessions', { action: 'get', id: session.id })).structuredContent.session.id, session.id);
  assert.is((await call(t, 'sessions', { action: 'stop', id: session.id })).structuredContent.session.status, 'stopped');
  assert.is((await call(t, 'sessions', { action: 'list', status: 'active' })).structuredContent.sessions.length, 0);

  const quest = (await call(t, 'quests', { action: 'create', title: 'Write notes', agent_id: agent.id })).structuredContent.quest;
  const updated = await call(t, 'quests', { action: 'update', id: quest.id, status: 'done', result: { pages: 3 } });
  assert.is(updated.structuredContent.quest.status, 'done');
  assert.equal(updated.structuredContent.quest.result, { pages: 3 });

  const sent = await call(t, 'message_to', { to: 'research', text: 'hello' });
  assert.is(sent.structuredContent.agent_id, agent.id);
  assert.ok((await call(t, 'message_to', { to: 'nobody', text: 'hello' })).isError);
  // The state lives in the key's Company runtime.
  assert.is(t.runtimes.servicesOf(MCP_COMPANY).quests.list().length, 1);
});

test.run();
