import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILTIN_TOOL_CATALOG } from '../../../daemon/company/index.js';
import { createToolRegistry } from '../../../daemon/company/bus/tools.js';
import { callEventsTool, createMcpTestApp } from '../../helpers/mcp-app.js';

/**
 * What the events tool's schema offers a configured event's tool_calls, against what the runtime
 * accepts. Both come from one list (the runtime's registry), so they cannot drift; this checks the
 * list, the schema, and the runtime's answer for each name.
 */
async function offered() {
  const t = await createMcpTestApp();
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const events = res.body.result.tools.find((x: any) => x.name === 'events');
  const toolCall = events.inputSchema.properties.tool_calls.items;
  return { t, names: toolCall.properties.tool.enum as string[], argsHelp: toolCall.properties.args.description };
}

test('the schema offers exactly the names the runtime registry accepts, sessions.compact included', async () => {
  const { names } = await offered();
  assert.equal([...names].sort(), createToolRegistry().names());
  assert.equal(names, ['quests.create', 'quests.update', 'message_to', 'sessions.update', 'sessions.compact']);
  assert.equal(
    names,
    BUILTIN_TOOL_CATALOG.map((x) => x.name),
  );
});

test("each offered tool's arguments are described from the runtime's own description", async () => {
  const { argsHelp } = await offered();
  for (const tool of BUILTIN_TOOL_CATALOG) assert.ok(argsHelp.includes(`${tool.name}: ${tool.description}`), tool.name);
});

test('the runtime takes every offered name and refuses any other with the list', async () => {
  const { t, names } = await offered();
  const agent = (await (await t.services()).agents.create({ name: 'Rita', role: 'reviewer' })).id;
  const session = (await (await t.services()).sessions.create({ agent_id: agent })).id;
  const args: Record<string, Record<string, unknown>> = {
    'quests.create': { title: 'Follow up' },
    'quests.update': { status: 'in_progress' },
    message_to: { to: 'reviewer', text: 'It stopped.' },
    'sessions.update': { append: { text: 'Noted.' } },
    'sessions.compact': { role: 'reviewer' },
  };
  assert.equal(Object.keys(args).sort(), [...names].sort());
  for (const tool of names) {
    const created = await callEventsTool(t, {
      action: 'create',
      type: 'session:stopped',
      session_id: session,
      tool_calls: [{ tool, args: args[tool] }],
    });
    assert.not.ok(created.error, `${tool}: ${created.error}`);
  }
  const refused = await callEventsTool(t, {
    action: 'create',
    type: 'session:stopped',
    tool_calls: [{ tool: 'sessions.create', args: {} }],
  });
  assert.is(
    refused.error,
    `tool_calls.0.tool: unknown tool 'sessions.create'; available: ${[...names].sort().join(', ')}.`,
  );
});

test.run();
