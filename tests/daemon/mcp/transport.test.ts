import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { formatKey } from '../../../shared/keys.js';
import { createUser } from '../../helpers/accounts.js';
import { rotateAccountKey } from '../../helpers/keys.js';
import { createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

const test = suite<{ t: McpTestApp }>('mcp transport');
test.before(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

const init = (version = '2025-11-25') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

test('initialize negotiates 2025-11-25 and answers JSON', async ({ t }) => {
  const res = await t.mcp(init());
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.is(res.body.id, 1);
  assert.is(res.body.result.protocolVersion, '2025-11-25');
  assert.equal(res.body.result.capabilities.tools, { listChanged: false });
  assert.is(res.body.result.serverInfo.name, 'svc');
});

test('an older revision is kept; an unknown one is answered with the latest', async ({ t }) => {
  assert.is((await t.mcp(init('2025-03-26'))).body.result.protocolVersion, '2025-03-26');
  assert.is((await t.mcp(init('2024-11-05'))).body.result.protocolVersion, '2024-11-05');
  assert.is((await t.mcp(init('1999-01-01'))).body.result.protocolVersion, '2025-11-25');
});

test('notifications and responses: 202 with no body', async ({ t }) => {
  const n = await t.mcp({ jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.is(n.status, 202);
  assert.is(n.text, '');
  const cancel = await t.mcp({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
  assert.is(cancel.status, 202);
  const r = await t.mcp({ jsonrpc: '2.0', id: 9, result: {} });
  assert.is(r.status, 202);
  assert.is(r.text, '');
});

test('ping answers an empty result with the same id', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 'p-1', method: 'ping' });
  assert.equal(res.body, { jsonrpc: '2.0', id: 'p-1', result: {} });
});

test('bad JSON: 400 with a JSON-RPC parse error', async ({ t }) => {
  const res = await t.mcp('{"jsonrpc": "2.0", "id": 1,');
  assert.is(res.status, 400);
  assert.is(res.body.error.code, -32700);
  assert.is(res.body.id, null);
});

test('a batch array: answered under 2025-03-26 (no version header), an invalid request from 2025-06-18 on', async ({
  t,
}) => {
  const batch = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'x' } },
  ];
  const old = await t.mcp(batch);
  assert.is(old.status, 200);
  assert.equal(
    old.body.map((r: any) => [r.id, r.result ? 'ok' : r.error.code]),
    [
      [1, 'ok'],
      [2, -32602],
    ],
  );
  assert.is(
    (await t.mcp([{ jsonrpc: '2.0', method: 'notifications/initialized' }], { 'mcp-protocol-version': '2025-03-26' }))
      .status,
    202,
  );
  const initInBatch = await t.mcp([init()]);
  assert.is(initInBatch.body[0].error.code, -32600);
  for (const version of ['2025-06-18', '2025-11-25']) {
    const res = await t.mcp(batch, { 'mcp-protocol-version': version });
    assert.is(res.status, 400);
    assert.is(res.body.error.code, -32600);
    assert.match(res.body.error.message, /batches were removed in MCP 2025-06-18/);
  }
  assert.is((await t.mcp([])).body.error.code, -32600);
});

test('not JSON-RPC: invalid request, keeping a readable id', async ({ t }) => {
  const res = await t.mcp({ id: 4, method: 'ping' });
  assert.is(res.status, 400);
  assert.is(res.body.error.code, -32600);
  assert.is(res.body.id, 4);
  assert.is((await t.mcp('42')).body.error.code, -32600);
});

test('unknown method: -32601', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 3, method: 'resources/list' });
  assert.is(res.status, 200);
  assert.is(res.body.error.code, -32601);
  assert.match(res.body.error.message, /resources\/list/);
  // A method named after an Object.prototype member is just as unknown.
  for (const method of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
    const odd = await t.mcp({ jsonrpc: '2.0', id: 4, method });
    assert.is(odd.status, 200, method);
    assert.is(odd.body.error.code, -32601, method);
  }
});

test('params that do not fit the method: -32602', async ({ t }) => {
  const res = await t.mcp({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: {} } });
  assert.is(res.body.error.code, -32602);
  const list = await t.mcp({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { cursor: 7 } });
  assert.is(list.body.error.code, -32602);
});

test('Accept must allow JSON and SSE: else 406', async ({ t }) => {
  assert.is((await t.mcp(init(), { accept: 'application/json' })).status, 406);
  assert.is((await t.mcp(init(), { accept: 'text/event-stream' })).status, 406);
  const none = await t.raw({ payload: JSON.stringify(init()), headers: { accept: '' } });
  assert.is(none.status, 406);
  assert.is(none.body.code, 'not_acceptable');
  assert.is((await t.mcp(init(), { accept: '*/*' })).status, 200);
});

test('a body that is not JSON by type: 415', async ({ t }) => {
  const res = await t.mcp(init(), { 'content-type': 'text/plain' });
  assert.is(res.status, 415);
  assert.is(res.body.code, 'unsupported_media_type');
});

test('a body over 1 MiB: 413 in the usual error shape', async ({ t }) => {
  const big = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(1024 * 1024 + 10) } } };
  const res = await t.mcp(big);
  assert.is(res.status, 413);
  assert.is(res.body.code, 'payload_too_large');
});

test('GET and DELETE: 405 with Allow: POST, OPTIONS', async ({ t }) => {
  for (const method of ['GET', 'DELETE']) {
    const res = await t.raw({ method, headers: { accept: 'text/event-stream' } });
    assert.is(res.status, 405, method);
    assert.is(res.headers.allow, 'POST, OPTIONS');
    assert.is(res.body.code, 'method_not_allowed');
  }
});

test('Origin: absent, loopback and the public URL pass; another site gets 403', async ({ t }) => {
  assert.is((await t.mcp(init(), { origin: 'http://localhost:6274' })).status, 200);
  assert.is((await t.mcp(init(), { origin: 'http://127.0.0.1:7878' })).status, 200);
  const evil = await t.mcp(init(), { origin: 'https://evil.example' });
  assert.is(evil.status, 403);
  assert.is(evil.body.code, 'origin_not_allowed');
  assert.is((await t.mcp(init(), { origin: 'null' })).status, 403);
});

test('MCP-Protocol-Version: supported passes, unsupported is 400, initialize is exempt', async ({ t }) => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  assert.is((await t.mcp(ping, { 'mcp-protocol-version': '2025-06-18' })).status, 200);
  const bad = await t.mcp(ping, { 'mcp-protocol-version': '2024-01-01' });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'unsupported_protocol_version');
  assert.ok(bad.body.supported_versions.includes('2025-11-25'));
  assert.is((await t.mcp(init(), { 'mcp-protocol-version': '2024-01-01' })).status, 200);
  // A modern-era revision in the header belongs to the 2026-07-28 rules: there the request needs its _meta envelope (conformance.test.ts).
  const future = await t.mcp(ping, { 'mcp-protocol-version': '2030-01-01' });
  assert.is(future.status, 400);
  assert.is(future.body.error.code, -32602);
});

test('MCP-Protocol-Version that is not a revision: its own 400, before either era reads it, initialize included', async ({
  t,
}) => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  // Compared as text, "undefined" would sort after every real revision and pass for the newest one.
  for (const value of ['undefined', 'latest', '2025-11-25, 2026-07-28', '20251125', 'null']) {
    for (const body of [ping, init()]) {
      const res = await t.mcp(body, { 'mcp-protocol-version': value });
      assert.is(res.status, 400, value);
      assert.is(res.body.code, 'invalid_protocol_version', value);
      assert.match(res.body.error, /is not a protocol revision/);
      assert.ok(res.body.supported_versions.includes('2025-11-25'));
    }
  }
});

test('401 without a key or with an unknown one, 402 on the trial tier, before any JSON-RPC', async ({ t }) => {
  const none = await t.raw({ payload: JSON.stringify(init()), headers: { authorization: '' } });
  assert.is(none.status, 401);
  assert.is(none.body.code, 'unauthorized');
  assert.is((await t.mcp(init(), { authorization: 'Bearer sk_nope' })).body.code, 'malformed_key');
  assert.is((await t.mcp(init(), { authorization: `Bearer ${t.owner.token}` })).body.code, 'malformed_key');
  const unknown = await t.mcp(init(), { authorization: `Bearer ${formatKey('secret', randomBytes(32))}` });
  assert.is(unknown.status, 401);
  assert.is(unknown.body.code, 'invalid_key');
  assert.not.ok('jsonrpc' in unknown.body);
  // An account key must belong to the secret key's user; the lapsed user's own key is theirs.
  const otherUser = await createUser(t, { tier: 'company' });
  const foreignAk = await rotateAccountKey(t, otherUser);
  const mismatch = await t.mcp(init(), { 'x-api-key': foreignAk });
  assert.is(mismatch.status, 401);
  assert.is(mismatch.body.code, 'account_key_mismatch');
  assert.is((await t.mcp(init(), { 'x-api-key': t.keys.account })).status, 200);
  const trial = await t.mcp(init(), { authorization: `Bearer ${t.keys.trial}` });
  assert.is(trial.status, 402);
  assert.is(trial.body.code, 'subscription_required');
});

test('concurrent requests with the same id each get their own answer', async ({ t }) => {
  const call = (name: string) =>
    t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { action: 'list' } } });
  const [agents, quests] = await Promise.all([call('agents'), call('quests')]);
  assert.ok('agents' in agents.body.result.structuredContent);
  assert.ok('quests' in quests.body.result.structuredContent);
  assert.is(agents.body.id, 1);
});

test.run();
