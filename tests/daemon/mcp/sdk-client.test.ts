import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { runEventsScenario } from '../../helpers/mcp-scenario.js';
import { serveTestApp } from '../../helpers/test-app.js';

const test = suite('mcp: the official SDK client over Streamable HTTP');

test('initialize → tools/list → every events action → the triggered quest through quests, on a real socket', async () => {
  // File storage, as the daemon runs: the runtime's documents and the stores on disk.
  const t = await createMcpTestApp({ storage: 'file' });
  const served = await serveTestApp(t);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${t.keys.secret}`, 'X-Api-Key': t.keys.account } },
  });
  try {
    await client.connect(transport);
    await runEventsScenario(client, t);

    const bad = await client.callTool({ name: 'quests', arguments: { action: 'get' } });
    assert.ok(bad.isError);
    const unknown = await client.callTool({ name: 'missing', arguments: {} }).then(() => null, (err: Error) => err);
    assert.match(String(unknown?.message), /Unknown tool/);
  } finally {
    await client.close();
    await served.close();
  }
});

test('a lapsed (trial) key: the SDK client fails to connect with the 402 explanation', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${served.url}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${t.keys.trial}` } },
  });
  try {
    const err = await client.connect(transport).then(() => null, (e: Error) => e);
    assert.ok(err);
    assert.match(String(err!.message), /Company subscription/);
  } finally {
    await client.close();
    await served.close();
  }
});

test.run();
