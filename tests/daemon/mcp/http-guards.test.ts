import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { resolveConfig } from '../../../daemon/main.js';
import { formatKey } from '../../../shared/keys.js';
import { connectV1Http, connectV1Relay, connectV2Http } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

/** What sits in front of the tools: the Bearer challenge, the Origin rule and CORS, the tool-call limit; and the request details the SDK clients send. */
const test = suite('mcp: challenge, Origin, CORS, rate limit, tasks, cursors');

test('every 401 carries a Bearer challenge saying why; the SDK client reports the reason', async () => {
  const t = await createMcpTestApp();
  const none = await t.raw({ payload: '{}', headers: { authorization: '' } });
  assert.is(none.status, 401);
  assert.match(
    String(none.headers['www-authenticate']),
    /^Bearer realm="svc", resource_metadata="http:\/\/127\.0\.0\.1:7878\/\.well-known\/oauth-protected-resource\/api\/mcp", error="invalid_request", error_description="Authentication required/,
  );
  for (const key of ['sk_nope', formatKey('secret', randomBytes(32))]) {
    const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${key}` });
    assert.is(res.status, 401);
    assert.match(
      String(res.headers['www-authenticate']),
      /^Bearer realm="svc", resource_metadata="[^"]+", error="invalid_token", error_description="[^"]+"$/,
    );
  }
  const served = await serveTestApp(t);
  try {
    const err = await connectV1Http(served.url, { secret: formatKey('secret', randomBytes(32)) }).then(
      () => null,
      (e: Error) => e,
    );
    assert.match(String(err?.message), /revoked or never existed/);
  } finally {
    await served.close();
  }
});

test('the Origin check runs before the key guard: a foreign page gets 403 whatever key it sends', async () => {
  const t = await createMcpTestApp();
  for (const authorization of [`Bearer ${t.keys.secret}`, 'Bearer sk_nope', '']) {
    const res = await t.mcp(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { origin: 'https://evil.example', authorization },
    );
    assert.is(res.status, 403, authorization);
    assert.is(res.body.code, 'origin_not_allowed');
    assert.is(res.headers['access-control-allow-origin'], undefined);
  }
  const preflight = await t.raw({ method: 'OPTIONS', headers: { origin: 'https://evil.example', authorization: '' } });
  assert.is(preflight.status, 403);
});

test("CORS: a preflight from the daemon's own or a configured origin is answered without keys; replies expose the MCP headers", async () => {
  const t = await createMcpTestApp({ config: { mcpAllowedOrigins: ['https://console.example'] } });
  for (const origin of ['http://127.0.0.1:7878', 'https://console.example']) {
    const pre = await t.raw({
      method: 'OPTIONS',
      headers: {
        origin,
        authorization: '',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    assert.is(pre.status, 204, origin);
    assert.is(pre.headers['access-control-allow-origin'], origin);
    assert.match(
      String(pre.headers['access-control-allow-headers']),
      /Authorization.*Content-Type.*MCP-Protocol-Version.*Mcp-Session-Id.*Mcp-Method.*Mcp-Name/,
    );
    assert.match(String(pre.headers['access-control-allow-methods']), /POST/);
    assert.match(String(pre.headers.vary), /Origin/);
    const post = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin });
    assert.is(post.status, 200);
    assert.is(post.headers['access-control-allow-origin'], origin);
    assert.match(String(post.headers['access-control-expose-headers']), /Mcp-Session-Id.*WWW-Authenticate/);
    // A refusal is readable by the page too: the 401 and its challenge.
    const refused = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin, authorization: '' });
    assert.is(refused.status, 401);
    assert.is(refused.headers['access-control-allow-origin'], origin);
  }
  // A loopback page passes the rebinding check but gets no CORS answer unless configured.
  const local = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://localhost:6274' });
  assert.is(local.status, 200);
  assert.is(local.headers['access-control-allow-origin'], undefined);
});

test('tools/call is rate limited per key: over HTTP the SDK client gets the 429 reason, through svc mcp a JSON-RPC error with retry_after', async () => {
  const t = await createMcpTestApp({ config: { mcpToolCallsPerMinute: 3 } });
  const served = await serveTestApp(t);
  const http = await connectV1Http(served.url, { secret: t.keys.secret });
  try {
    for (let i = 0; i < 3; i++) assert.not.ok((await http.callTool({ name: 'whoami', arguments: {} })).isError);
    const over = await http.callTool({ name: 'whoami', arguments: {} }).then(
      () => null,
      (e: Error & { code?: number }) => e,
    );
    assert.is(over?.code, 429);
    assert.match(String(over?.message), /Too many tool calls for this key.*Retry after 60 s/);
    const raw = await t.mcp({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    assert.is(raw.status, 429);
    assert.is(raw.headers['retry-after'], '60');
    assert.equal([raw.body.id, raw.body.error.code, raw.body.error.data], [9, -32000, { retry_after: 60 }]);
    // Listing is not a tool call; another key has its own budget.
    assert.ok((await http.listTools()).tools.length > 0);
    t.clock.advance(60_000);
    const relay = await connectV1Relay(served.url, { secret: t.keys.secret });
    try {
      for (let i = 0; i < 3; i++) await relay.callTool({ name: 'whoami', arguments: {} });
      const viaRelay = await relay.callTool({ name: 'whoami', arguments: {} }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.instance(viaRelay, McpError);
      assert.equal([(viaRelay as McpError).code, (viaRelay as McpError).data], [-32000, { retry_after: 60 }]);
    } finally {
      await relay.close();
    }
  } finally {
    await http.close();
    await served.close();
  }
});

test('the limit is configurable when starting the daemon; 0 turns it off (benchmarks); a bad value refuses to start', async () => {
  assert.is(resolveConfig({}, { SVC_MCP_TOOL_CALLS_PER_MINUTE: '30' }).mcpToolCallsPerMinute, 30);
  assert.throws(() => resolveConfig({}, { SVC_MCP_TOOL_CALLS_PER_MINUTE: 'lots' }), /SVC_MCP_TOOL_CALLS_PER_MINUTE/);
  const t = await createMcpTestApp({ config: { mcpToolCallsPerMinute: 0 } });
  for (let i = 0; i < 130; i++) {
    const res = await t.mcp({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    assert.is(res.status, 200);
  }
});

test('a task-augmented tools/call is run as a plain call (no tasks capability); a cursor tools/list never issued is -32602', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const v1 = await connectV1Http(served.url, { secret: t.keys.secret });
  const v2 = await connectV2Http(served.url, { secret: t.keys.secret }, { pin: '2026-07-28' });
  try {
    assert.is(v1.getServerCapabilities()?.tasks, undefined);
    const result = await v1.request(
      { method: 'tools/call', params: { name: 'whoami', arguments: {}, task: { ttl: 60_000 } } },
      CallToolResultSchema,
    );
    assert.is((result.structuredContent as any).company.id, t.company.id);
    for (const list of [() => v1.listTools({ cursor: 'page-2' }), () => v2.listTools({ cursor: 'page-2' })]) {
      const err = await list().then(
        () => null,
        (e: { code?: number; message: string }) => e,
      );
      assert.is(err?.code, -32602);
      assert.match(String(err?.message), /Invalid cursor/);
    }
  } finally {
    await v1.close();
    await v2.close();
    await served.close();
  }
});

test.run();
