import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { runEventsScenario } from '../../helpers/mcp-scenario.js';
import { serveTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';

const test = suite('svc mcp under the SDK StdioClientTransport');
const MAIN = fileURLToPath(new URL('../../../cli/main.js', import.meta.url));

test('the built `svc mcp`: initialize → tools/list → every events action → the triggered quest through quests', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: { SVC_URL: served.url, SVC_SECRET_KEY: t.keys.secret, SVC_ACCOUNT_KEY: t.keys.account, SVC_CONFIG_DIR: tempDir('svc-config'), SVC_KEYCHAIN: 'off', PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    await runEventsScenario(client, t);
  } finally {
    await client.close();
    await served.close();
  }
});

test('the built `svc mcp` with a lapsed key: initialize fails with the 402 explanation', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp'],
    env: { SVC_URL: served.url, SVC_SECRET_KEY: t.keys.trial, SVC_CONFIG_DIR: tempDir('svc-config'), SVC_KEYCHAIN: 'off', PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  try {
    const err = await client.connect(transport).then(() => null, (e: Error) => e);
    assert.ok(err);
    assert.match(String(err!.message), /Company subscription.*svc admin tier/);
  } finally {
    await client.close();
    await served.close();
  }
});

test.run();
