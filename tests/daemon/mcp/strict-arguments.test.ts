import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectV1Http, connectV2Http } from '../../helpers/mcp-clients.js';
import { callEventsTool, createMcpTestApp } from '../../helpers/mcp-app.js';
import { everyToolCall, seedMcpWorld } from '../../helpers/mcp-world.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * An argument a tool does not know is refused, never ignored: a misspelt filter would otherwise
 * widen a read to everything. The refusal is a tool result (isError) that names the argument and
 * the allowed ones, so a model can correct itself; checked through the official SDK clients on a
 * 2025 revision (the direct answer path) and on 2026-07-28 (the v2 entry).
 */
const test = suite('mcp: strict tool arguments');

type Result = { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
const CLIENTS = [
  { name: 'v1, 2025-11-25', connect: (url: string, secret: string) => connectV1Http(url, { secret }) },
  {
    name: 'v2, 2026-07-28',
    connect: (url: string, secret: string) => connectV2Http(url, { secret }, { pin: '2026-07-28' }),
  },
];

for (const c of CLIENTS) {
  test(`${c.name}: a misspelt filter is refused, naming it and the allowed arguments, and returns no log`, async () => {
    const t = await createMcpTestApp();
    const served = await serveTestApp(t);
    const client = await c.connect(served.url, t.keys.secret);
    try {
      await seedMcpWorld(t);
      const tools = (await client.listTools()).tools;
      const allowed = (name: string) => Object.keys(tools.find((x) => x.name === name)!.inputSchema.properties ?? {});
      for (const name of ['events', 'events_read']) {
        const r = (await client.callTool({
          name,
          arguments: { action: 'list', event_typ: 'session:stopped' },
        })) as Result;
        assert.ok(r.isError, name);
        assert.is(r.structuredContent, undefined);
        assert.is(
          r.content[0]!.text,
          `Invalid arguments for tool '${name}': unknown argument 'event_typ'; allowed: ${allowed(name).join(', ')}.`,
        );
        assert.ok(allowed(name).includes('event_type'));
      }

      // Every tool, with arguments that would succeed, plus one it does not know.
      const world = await seedMcpWorld(t);
      for (const call of everyToolCall(world)) {
        const args = { ...call.args, colour: 'blue', size: 3 };
        const r = (await client.callTool({ name: call.tool, arguments: args })) as Result;
        assert.ok(r.isError, `${call.tool} ${call.action}`);
        assert.match(
          r.content[0]!.text,
          `unknown arguments 'colour', 'size'; allowed: ${allowed(call.tool).join(', ') || 'none'}.`,
        );
      }

      // Inside a configured event's tool call too: a misspelt `args` would otherwise run the tool with none.
      const nested = (await client.callTool({
        name: 'events',
        arguments: { action: 'create', type: 'session:stopped', tool_calls: [{ tool: 'quests.create', arg: {} }] },
      })) as Result;
      assert.ok(nested.isError);
      assert.match(nested.content[0]!.text, "tool_calls.0: unknown field 'arg'; allowed: tool, args.");
    } finally {
      await client.close();
      await served.close();
    }
  });
}

test('a strict schema is what tools/list shows: additionalProperties false, nested objects included', async () => {
  const t = await createMcpTestApp();
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  for (const tool of res.body.result.tools) assert.is(tool.inputSchema.additionalProperties, false, tool.name);
  const events = res.body.result.tools.find((x: any) => x.name === 'events');
  assert.is(events.inputSchema.properties.tool_calls.items.additionalProperties, false);
  // docs/mcp.md quotes this refusal word for word.
  const refusal = (await callEventsTool(t, { action: 'list', event_typ: 'session:stopped' })).error;
  const docs = readFileSync(new URL('../../../../docs/mcp.md', import.meta.url), 'utf8');
  assert.ok(docs.includes(JSON.stringify(refusal)), refusal);
});

test.run();
