import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMcpTestApp, MCP_KEYS } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';

const test = suite('svc mcp under the SDK StdioClientTransport');
const MAIN = fileURLToPath(new URL('../../../cli/main.js', import.meta.url));

test('the built `svc mcp`: initialize → tools/list → whoami → events → quests', async () => {
  const served = await serveTestApp(await createMcpTestApp());
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: { SVC_URL: served.url, SVC_SECRET_KEY: MCP_KEYS.secret, SVC_ACCOUNT_KEY: MCP_KEYS.account, SVC_CONFIG_DIR: tempDir('svc-config'), SVC_KEYCHAIN: 'off', PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    assert.is(client.getServerVersion()?.name, 'svc');
    const { tools } = await client.listTools();
    assert.equal(tools.map((t) => t.name).sort(), ['agents', 'events', 'message_to', 'quests', 'sessions', 'whoami']);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    assert.is((who.structuredContent as any).user.email, 'ada@example.com');

    const created = await client.callTool({ name: 'events', arguments: { action: 'create', type: 'ticket:opened', tool_calls: [{ tool: 'quests.create', args: { title: 'Answer the ticket' } }] } });
    const id = (created.structuredContent as any).event.id;
    await client.callTool({ name: 'events', arguments: { action: 'disable', id } });
    await client.callTool({ name: 'events', arguments: { action: 'enable', id } });
    const fired = await client.callTool({ name: 'events', arguments: { action: 'trigger', type: 'ticket:opened' } });
    const root = (fired.structuredContent as any).event.id;
    const trace = await client.callTool({ name: 'events', arguments: { action: 'trace', event_id: root } });
    assert.is((trace.structuredContent as any).children.length, 1);
    const listed = await client.callTool({ name: 'events', arguments: { action: 'list' } });
    assert.ok((listed.structuredContent as any).events.length >= 2);
    const quests = await client.callTool({ name: 'quests', arguments: { action: 'list' } });
    assert.equal((quests.structuredContent as any).quests.map((q: any) => q.title), ['Answer the ticket']);
    const deleted = await client.callTool({ name: 'events', arguments: { action: 'delete', id } });
    assert.not.ok(deleted.isError);
  } finally {
    await client.close();
    await served.close();
  }
});

test.run();
