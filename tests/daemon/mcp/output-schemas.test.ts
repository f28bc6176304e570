import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectV1Http, connectV2Http } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { everyToolCall, listedActions, seedMcpWorld } from '../../helpers/mcp-world.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * Every tool declares an outputSchema, and the official SDK clients check each result's
 * structuredContent against it (a mismatch throws in callTool). So every action of every tool
 * runs here for real, through v1 on 2025-11-25 and v2 on 2026-07-28, and must pass that check.
 */
const test = suite('mcp: every tool result matches its outputSchema, checked by the SDK clients');

const CLIENTS = [
  { name: 'v1, 2025-11-25', connect: (url: string, secret: string) => connectV1Http(url, { secret }) },
  {
    name: 'v2, 2026-07-28',
    connect: (url: string, secret: string) => connectV2Http(url, { secret }, { pin: '2026-07-28' }),
  },
];

for (const c of CLIENTS) {
  test(`${c.name}: every action of every tool`, async () => {
    const t = await createMcpTestApp({ config: { mcpToolCallsPerMinute: 0 } });
    const served = await serveTestApp(t);
    const client = await c.connect(served.url, t.keys.secret);
    try {
      // tools/list first: the clients take the schemas they check against from it.
      const { tools } = await client.listTools();
      for (const tool of tools) assert.is(tool.outputSchema?.type, 'object', tool.name);
      const calls = everyToolCall(await seedMcpWorld(t));
      assert.equal(
        [...new Set(calls.map((x) => `${x.tool} ${x.action}`))].sort(),
        listedActions(tools as never).sort(),
      );
      const answers: Record<string, any> = {};
      for (const call of calls) {
        const r = (await client.callTool({ name: call.tool, arguments: call.args })) as any;
        const label = `${call.tool} ${JSON.stringify(call.args)}`;
        assert.not.ok(r.isError, `${label}: ${r.content?.[0]?.text}`);
        assert.type(r.structuredContent, 'object', label);
        assert.equal(JSON.parse(r.content[0].text), r.structuredContent, label);
        answers[`${call.tool} ${call.action}`] = r.structuredContent;
      }
      // The typed quest result and the replay flags are part of what was checked.
      assert.is(answers['quests update'].quest.result, 'Three pages.');
      assert.is(answers['events trigger'].replayed, true);
      assert.is(answers['message_to '].replayed, true);
    } finally {
      await client.close();
      await served.close();
    }
  });
}

test('the quest result is typed: any JSON value, spelt out kind by kind, in and out', async () => {
  const t = await createMcpTestApp();
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const quests = res.body.result.tools.find((x: any) => x.name === 'quests');
  const kinds = (schema: any) => schema.anyOf.map((s: any) => s.type).sort();
  const all = ['array', 'boolean', 'null', 'number', 'object', 'string'];
  assert.equal(kinds(quests.inputSchema.properties.result), all);
  assert.equal(kinds(quests.outputSchema.properties.quest.properties.result), all);
});

test.run();
