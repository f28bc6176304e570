import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_MAIN, relayEnv } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { runEventsScenario } from '../../helpers/mcp-scenario.js';
import { serveTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * The clients people connect with, from the npm registry (devDependencies): mcp-remote (the
 * stdio↔HTTP bridge many desktop apps are configured with) and the MCP Inspector's CLI. Each runs
 * initialize → tools/list → every `events` action with zero errors, over HTTP and (the Inspector)
 * through `svc mcp`.
 */
const test = suite('mcp: mcp-remote and the Inspector CLI');
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const MCP_REMOTE = join(dirname(require.resolve('mcp-remote/package.json')), 'dist/proxy.js');
// The Inspector CLI reads its own package.json through a path relative to the *working folder*
// (build/index.js: fs.existsSync("../package.json")), so it only starts from inside its build folder.
const INSPECTOR_BUILD = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');

test('mcp-remote (HTTP, keys with --header) under the SDK stdio client: initialize → tools/list → every events action', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const home = tempDir('mcp-remote-home');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      MCP_REMOTE,
      `${served.url}/api/mcp`,
      '--transport',
      'http-only',
      '--header',
      `Authorization:Bearer ${t.keys.secret}`,
      '--header',
      `X-Api-Key:${t.keys.account}`,
    ],
    env: { PATH: process.env.PATH ?? '', HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, 'auth') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'host', version: '1.0.0' });
  try {
    await client.connect(transport);
    await runEventsScenario(client, t);
  } finally {
    await client.close();
    await served.close();
  }
});

/** One Inspector CLI run (it makes one call per process: initialize, then the method); the tool's structured result. */
async function inspector(
  target: string[],
  env: Record<string, string>,
  method: string,
  toolArgs?: Record<string, unknown>,
): Promise<any> {
  const args = [...target, '--method', method];
  if (toolArgs)
    args.push(
      '--tool-name',
      'events',
      '--tool-arg',
      ...Object.entries(toolArgs).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`),
    );
  const { stdout } = await run(process.execPath, ['index.js', ...args], {
    cwd: INSPECTOR_BUILD,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const result = JSON.parse(stdout);
  if (result.isError) assert.unreachable(`${method} ${JSON.stringify(toolArgs)}: ${result.content[0].text}`);
  return toolArgs ? result.structuredContent : result;
}

async function walkEvents(target: string[], env: Record<string, string>): Promise<void> {
  const listed = await inspector(target, env, 'tools/list');
  assert.ok(listed.tools.some((x: any) => x.name === 'events'));
  const created = await inspector(target, env, 'tools/call', {
    action: 'create',
    type: 'session:stopped',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Inspector quest' } }],
  });
  const id = created.event.id;
  assert.is((await inspector(target, env, 'tools/call', { action: 'disable', id })).event.status, 'paused');
  assert.is((await inspector(target, env, 'tools/call', { action: 'enable', id })).event.status, 'active');
  const fired = await inspector(target, env, 'tools/call', {
    action: 'trigger',
    type: 'session:stopped',
    content: { reason: 'inspector' },
  });
  assert.equal(
    fired.fired.map((f: any) => [f.tool, f.ok]),
    [['quests.create', true]],
  );
  assert.is((await inspector(target, env, 'tools/call', { action: 'trigger', id })).fired[0].ok, true);
  assert.is(
    (await inspector(target, env, 'tools/call', { action: 'trace', event_id: fired.event.id })).fired.length,
    1,
  );
  assert.ok((await inspector(target, env, 'tools/call', { action: 'list', limit: 10 })).events.length >= 2);
  assert.ok(
    (await inspector(target, env, 'tools/call', { action: 'list', configured: true })).events.some(
      (e: any) => e.id === id,
    ),
  );
  assert.is((await inspector(target, env, 'tools/call', { action: 'delete', id })).deleted, true);
}

test('the Inspector CLI over Streamable HTTP (keys with --header): tools/list and every events action', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  try {
    await walkEvents(
      [
        `${served.url}/api/mcp`,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${t.keys.secret}`,
        '--header',
        `X-Api-Key: ${t.keys.account}`,
      ],
      {},
    );
  } finally {
    await served.close();
  }
});

test('the Inspector CLI through `svc mcp` (stdio; keys in the environment): tools/list and every events action', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  try {
    await walkEvents(
      [process.execPath, CLI_MAIN, 'mcp'],
      relayEnv(served.url, { secret: t.keys.secret, account: t.keys.account }),
    );
  } finally {
    await served.close();
  }
});

test.run();
