import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TOOLS_LIST_CACHE } from '../../../daemon/mcp/server.js';
import { createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * The Streamable HTTP transport's MUSTs, revision by revision, against the real daemon on a real
 * socket (fetch, as a client sends): status codes, headers, content types. Client behaviour on top
 * of these is covered with the SDK clients in sdk-clients.test.ts and stdio-e2e.test.ts.
 */
type Ctx = { t: McpTestApp; url: string; close(): Promise<void> };
const test = suite<Ctx>('mcp conformance: Streamable HTTP MUSTs of each revision');
test.before(async (ctx) => {
  ctx.t = await createMcpTestApp();
  const served = await serveTestApp(ctx.t);
  ctx.url = `${served.url}/api/mcp`;
  ctx.close = served.close;
});
test.after(async (ctx) => ctx.close());

const BOTH = 'application/json, text/event-stream';
async function post(ctx: Ctx, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(ctx.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ctx.t.keys.secret}`,
      accept: BOTH,
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}
const initialize = (version: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'conformance', version: '0' } },
});
const ping = (id = 2) => ({ jsonrpc: '2.0', id, method: 'ping' });

for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
  // From 2025-06-18 the client sends the negotiated revision on every request after initialize.
  const after: Record<string, string> = version === '2025-03-26' ? {} : { 'mcp-protocol-version': version };

  test(`${version}: initialize answers 200 application/json with the same revision, and no Mcp-Session-Id (a stateless server)`, async (ctx) => {
    const res = await post(ctx, initialize(version));
    assert.is(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^application\/json/);
    assert.equal([res.body.jsonrpc, res.body.id, res.body.result.protocolVersion], ['2.0', 1, version]);
    assert.is(res.headers.get('mcp-session-id'), null);
  });

  test(`${version}: a notification or a response is 202 Accepted with no body`, async (ctx) => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
    ]) {
      const res = await post(ctx, message, after);
      assert.is(res.status, 202);
      assert.is(res.text, '');
    }
  });

  test(`${version}: Accept must list both JSON and SSE (406), Content-Type must be JSON (415)`, async (ctx) => {
    assert.is((await post(ctx, ping(), { ...after, accept: 'application/json' })).status, 406);
    assert.is((await post(ctx, ping(), { ...after, accept: 'text/event-stream' })).status, 406);
    assert.is((await post(ctx, ping(), { ...after, 'content-type': 'text/plain' })).status, 415);
  });

  test(`${version}: GET (no server stream offered) and DELETE (no session) are 405`, async (ctx) => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(ctx.url, {
        method,
        headers: { authorization: `Bearer ${ctx.t.keys.secret}`, accept: 'text/event-stream', ...after },
      });
      assert.is(res.status, 405, method);
      assert.match(String(res.headers.get('allow')), /POST/);
    }
  });

  test(`${version}: a foreign Origin is 403`, async (ctx) => {
    assert.is((await post(ctx, ping(), { ...after, origin: 'http://attacker.example' })).status, 403);
  });

  test(`${version}: batches ${version === '2025-03-26' ? 'are answered with an array' : 'are refused (-32600)'}`, async (ctx) => {
    const res = await post(ctx, [ping(5), { jsonrpc: '2.0', method: 'notifications/initialized' }], after);
    if (version === '2025-03-26') {
      assert.is(res.status, 200);
      assert.equal(
        res.body.map((r: any) => r.id),
        [5],
      );
    } else {
      assert.is(res.status, 400);
      assert.is(res.body.error.code, -32600);
    }
  });
}

test('2025-06-18 on: an MCP-Protocol-Version the server does not speak is 400; an absent one means 2025-03-26', async (ctx) => {
  const res = await post(ctx, ping(), { 'mcp-protocol-version': '2024-02-30' });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'unsupported_protocol_version');
  assert.is((await post(ctx, ping())).status, 200);
});

test('initialize offering a revision the server does not know: it answers with its latest (the client decides)', async (ctx) => {
  assert.is((await post(ctx, initialize('1999-01-01'))).body.result.protocolVersion, '2025-11-25');
});

// 2026-07-28: no initialize; every request carries its _meta envelope and the Mcp-Method (and for tools/call Mcp-Name) header.
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'conformance', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modern = (method: string, params: Record<string, unknown> = {}, id = 7) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: META },
});
const modernHeaders = (method: string, name?: string): Record<string, string> => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

test('2026-07-28: server/discover answers the supported revisions and capabilities; results carry resultType', async (ctx) => {
  const res = await post(ctx, modern('server/discover'), modernHeaders('server/discover'));
  assert.is(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^application\/json/);
  assert.ok(res.body.result.supportedVersions.includes('2026-07-28'));
  assert.equal(res.body.result.capabilities.tools, { listChanged: false });
  assert.is(res.body.result.resultType, 'complete');
  const call = await post(
    ctx,
    modern('tools/call', { name: 'whoami', arguments: {} }),
    modernHeaders('tools/call', 'whoami'),
  );
  assert.is(call.status, 200);
  assert.equal(
    [call.body.result.resultType, call.body.result.structuredContent.company.id],
    ['complete', ctx.t.company.id],
  );
});

test('2026-07-28: tools/list says how long it holds (an hour, private to the key); the 2025 answer has no cache fields', async (ctx) => {
  const modernList = await post(ctx, modern('tools/list'), modernHeaders('tools/list'));
  assert.is(modernList.status, 200);
  assert.equal([modernList.body.result.ttlMs, modernList.body.result.cacheScope], [TOOLS_LIST_CACHE.ttlMs, 'private']);
  assert.is(TOOLS_LIST_CACHE.ttlMs, 3_600_000);
  const legacy = await post(
    ctx,
    { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    { 'mcp-protocol-version': '2025-11-25' },
  );
  assert.equal(legacy.body.result.tools, modernList.body.result.tools);
  assert.is(legacy.body.result.ttlMs, undefined);
  assert.is(legacy.body.result.cacheScope, undefined);
});

test('2026-07-28: missing or disagreeing MCP-Protocol-Version / Mcp-Method / Mcp-Name headers are 400 with -32020', async (ctx) => {
  const call = modern('tools/call', { name: 'whoami', arguments: {} });
  for (const headers of [
    { 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'whoami' }, // no Mcp-Method
    modernHeaders('tools/list', 'whoami'), // Mcp-Method disagrees
    modernHeaders('tools/call', 'events'), // Mcp-Name disagrees
    modernHeaders('tools/call'), // no Mcp-Name
    { ...modernHeaders('tools/call', 'whoami'), 'mcp-protocol-version': '2025-11-25' }, // header and envelope disagree
  ]) {
    const res = await post(ctx, call, headers);
    assert.is(res.status, 400, JSON.stringify(headers));
    assert.is(res.body.error.code, -32020, JSON.stringify(headers));
  }
});

test('2026-07-28: a revision the server does not support is 400 with -32022 naming the supported ones', async (ctx) => {
  const body = {
    ...modern('server/discover'),
    params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
  };
  const res = await post(ctx, body, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'server/discover' });
  assert.is(res.status, 400);
  assert.is(res.body.error.code, -32022);
  assert.ok(res.body.error.data.supported.includes('2026-07-28'));
});

test('2026-07-28: a present but malformed envelope is 400 with -32602, never a fall back to the 2025 rules', async (ctx) => {
  const body = {
    ...modern('server/discover'),
    params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 } },
  };
  const res = await post(ctx, body, modernHeaders('server/discover'));
  assert.is(res.status, 400);
  assert.is(res.body.error.code, -32602);
});

test('2026-07-28: a notification is 202; GET is 405; a foreign Origin is 403; no key is 401 with a Bearer challenge', async (ctx) => {
  const note = await post(
    ctx,
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, _meta: META } },
    modernHeaders('notifications/cancelled'),
  );
  assert.equal([note.status, note.text], [202, '']);
  const get = await fetch(ctx.url, {
    headers: {
      authorization: `Bearer ${ctx.t.keys.secret}`,
      accept: 'text/event-stream',
      'mcp-protocol-version': '2026-07-28',
    },
  });
  assert.is(get.status, 405);
  assert.is(
    (
      await post(ctx, modern('server/discover'), {
        ...modernHeaders('server/discover'),
        origin: 'http://attacker.example',
      })
    ).status,
    403,
  );
  const anon = await post(ctx, modern('server/discover'), { ...modernHeaders('server/discover'), authorization: '' });
  assert.is(anon.status, 401);
  assert.match(String(anon.headers.get('www-authenticate')), /^Bearer realm="svc"/);
});

test.run();
