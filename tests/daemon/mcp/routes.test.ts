import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMcpTestApp } from '../../helpers/mcp-app.js';

/**
 * /api/mcp as mounted by daemon/app.ts (mcpRoutes): the real key guard in front of the MCP server.
 * Transport details are in transport.test.ts; this file checks the mounting itself.
 */

test('POST /api/mcp is the MCP server behind the key guard: initialize, then tools/list, with a real secret key', async () => {
  const t = await createMcpTestApp();
  const init = await t.mcp({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'routes', version: '0' } },
  });
  assert.is(init.status, 200);
  assert.is(init.body.result.serverInfo.name, 'svc');
  const list = await t.mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2025-11-25' });
  assert.is(list.status, 200);
  assert.is(list.body.id, 2);
  assert.ok(list.body.result.tools.length >= 6);
});

test('/api/mcp takes its raw body past the JSON parser: bad JSON is a JSON-RPC parse error, not a REST 400', async () => {
  const t = await createMcpTestApp();
  const parse = await t.mcp('{"jsonrpc":');
  assert.is(parse.status, 400);
  assert.is(parse.body.jsonrpc, '2.0');
  assert.is(parse.body.error.code, -32700);
  assert.is(parse.body.id, null);
  for (const body of [
    '[]',
    '42',
    '{"id":1,"method":"x"}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"2.0","id":{},"method":"x"}',
  ]) {
    const res = await t.mcp(body);
    assert.is(res.status, 400, body);
    assert.is(res.body.error.code, -32600, body);
  }
});

test('the key guard answers before the MCP server: 401/402 in the {error, code} shape; a session JWT is not a key', async () => {
  const t = await createMcpTestApp();
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const none = await t.raw({ payload: ping, headers: { authorization: '' } });
  assert.is(none.status, 401);
  assert.ok(none.body.error && none.body.code);
  assert.not.ok('jsonrpc' in none.body);
  assert.is((await t.raw({ payload: ping, headers: { authorization: `Bearer ${t.owner.token}` } })).status, 401);
  const lapsed = await t.raw({ payload: ping, headers: { authorization: `Bearer ${t.keys.trial}` } });
  assert.is(lapsed.status, 402);
  assert.match(lapsed.body.error, /Company subscription/);
  // A GET without a key is refused by the guard; with one, the server says 405.
  assert.is((await t.get('/api/mcp')).status, 401);
  assert.is((await t.raw({ method: 'GET' })).status, 405);
  assert.is((await t.get('/api/mcp/nope')).status, 404);
});

test.run();
