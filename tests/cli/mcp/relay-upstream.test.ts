import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { formatKey } from '../../../shared/keys.js';
import { CLI_MAIN, relayEnv } from '../../helpers/mcp-clients.js';
import { startSdkUpstream, type SdkUpstream } from '../../helpers/sdk-upstream.js';

/**
 * The built `svc mcp` between the SDK's stdio client and a stateful SDK server: every message
 * kind both ways, SSE priming events, a stream resumed with Last-Event-ID, and a forgotten
 * session re-initialized instead of reported as a wrong SVC_URL.
 */
const test = suite<{ up: SdkUpstream; client: Client; stderr: () => string }>(
  'svc mcp relay against a stateful SDK server',
);

test.before.each(async (ctx) => {
  ctx.up = await startSdkUpstream();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_MAIN, 'mcp'],
    env: relayEnv(ctx.up.url, { secret: formatKey('secret', randomBytes(32)) }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c) => (stderr += c));
  ctx.stderr = () => stderr;
  ctx.client = new Client({ name: 'relay-test', version: '1.0.0' }, { capabilities: { roots: {} } });
  ctx.client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///work', name: 'work' }],
  }));
  await ctx.client.connect(transport);
});
test.after.each(async (ctx) => {
  await ctx.client.close();
  await ctx.up.close();
});

test('SSE answers with priming events (empty data), progress, and the answer after the stream was cut and resumed', async ({
  client,
  stderr,
}) => {
  const progress: number[] = [];
  const result = await client.callTool({ name: 'slow', arguments: {} }, undefined, {
    onprogress: (p) => progress.push(p.progress),
  });
  assert.equal(result.content, [{ type: 'text', text: 'done after a resumed stream' }]);
  assert.equal(progress, [1]);
  assert.not.match(stderr(), /Parse error|SyntaxError|Unexpected end of JSON/);
});

test('a server-to-client request is answered by the client through the relay', async ({ client }) => {
  const result = await client.callTool({ name: 'ask', arguments: {} });
  assert.equal(result.content, [{ type: 'text', text: 'file:///work' }]);
});

test('a cancellation reaches the server and aborts the call', async ({ client, up }) => {
  const abort = new AbortController();
  const call = client.callTool({ name: 'wait', arguments: {} }, undefined, { signal: abort.signal }).then(
    () => 'answered',
    (e: Error) => e.message,
  );
  await client.listTools(); // the call is in flight on its own stream once a later request has gone through
  abort.abort('the user pressed stop');
  assert.match(await up.cancelled, /the user pressed stop/);
  assert.match(await call, /the user pressed stop/);
});

test('a session the server forgot (404): the relay initializes a new one and the call goes through', async ({
  client,
  up,
  stderr,
}) => {
  assert.is(up.sessionsOpened(), 1);
  up.forgetSessions();
  const result = await client.callTool({ name: 'hello', arguments: {} });
  assert.equal(result.content, [{ type: 'text', text: 'hello' }]);
  assert.is(up.sessionsOpened(), 2);
  assert.match(stderr(), /no longer knows this session \(HTTP 404\): initializing a new one/);
  assert.not.match(stderr(), /Check SVC_URL/);
});

test.run();
