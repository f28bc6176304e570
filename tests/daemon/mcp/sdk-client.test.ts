import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpTestApp, MCP_KEYS } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

const test = suite('mcp: the official SDK client over Streamable HTTP');

test('initialize → tools/list → whoami → events and quests, on a real socket', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${MCP_KEYS.secret}`, 'X-Api-Key': MCP_KEYS.account } },
  });
  try {
    await client.connect(transport);
    assert.is(client.getServerVersion()?.name, 'svc');
    const { tools } = await client.listTools();
    assert.ok(tools.some((x) => x.name === 'events'));
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    assert.is((who.structuredContent as any).company.name, 'acme');
    assert.is((who.structuredContent as any).account_key, true);

    await client.callTool({ name: 'events', arguments: { action: 'create', type: 'lead:new', tool_calls: [{ tool: 'quests.create', args: { title: 'Call the lead' } }] } });
    const fired = await client.callTool({ name: 'events', arguments: { action: 'trigger', type: 'lead:new' } });
    assert.is((fired.structuredContent as any).fired.length, 1);
    const quests = await client.callTool({ name: 'quests', arguments: { action: 'list' } });
    assert.equal((quests.structuredContent as any).quests.map((q: any) => q.title), ['Call the lead']);

    const bad = await client.callTool({ name: 'quests', arguments: { action: 'get' } });
    assert.ok(bad.isError);
    const unknown = await client.callTool({ name: 'missing', arguments: {} }).then(() => null, (err: Error) => err);
    assert.match(String(unknown?.message), /Unknown tool/);
  } finally {
    await client.close();
    await served.close();
  }
});

test.run();
