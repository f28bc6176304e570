import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey } from '../../helpers/keys.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

async function keyHeaders(t: TestApp) {
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const { key } = await createSecretKey(t, u, co.id);
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

const rpc = (t: TestApp, headers: Record<string, string>, payload: string) => t.request({ method: 'POST', url: '/api/mcp', headers, payload });

test('POST /api/mcp answers every method with JSON-RPC -32601, authenticated', async () => {
  const t = await createTestApp();
  const headers = await keyHeaders(t);
  const res = await rpc(t, headers, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
  assert.is(res.status, 200);
  assert.equal(res.body, { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found: tools/list' } });
  const batch = await rpc(t, headers, JSON.stringify([{ jsonrpc: '2.0', id: 'a', method: 'x' }, { jsonrpc: '2.0', method: 'notifications/initialized' }]));
  assert.equal(batch.body.map((r: any) => [r.id, r.error.code]), [['a', -32601]]);
  const note = await rpc(t, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  assert.is(note.status, 202);
  assert.is(note.text, '');
});

test('POST /api/mcp answers framing errors as JSON-RPC: parse error, invalid request', async () => {
  const t = await createTestApp();
  const headers = await keyHeaders(t);
  const parse = await rpc(t, headers, '{"jsonrpc":');
  assert.is(parse.status, 400);
  assert.equal(parse.body.error.code, -32700);
  assert.is(parse.body.id, null);
  for (const body of ['[]', '42', '{"id":1,"method":"x"}', '{"jsonrpc":"2.0","id":1}', '{"jsonrpc":"2.0","id":{},"method":"x"}']) {
    const res = await rpc(t, headers, body);
    assert.is(res.status, 400, body);
    assert.is(res.body.error.code, -32600, body);
  }
  const huge = await rpc(t, headers, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad: 'x'.repeat(1024 * 1024) } }));
  assert.is(huge.status, 413);
});

test('POST /api/mcp without a key → 401 {error, code}, not a JSON-RPC answer; GET → 405', async () => {
  const t = await createTestApp();
  const res = await rpc(t, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
  assert.is(res.status, 401);
  assert.ok(res.body.error && res.body.code);
  const u = await createUser(t, { tier: 'company' });
  assert.is((await rpc(t, { ...u.auth, 'content-type': 'application/json' }, '{}')).status, 401);
  assert.is((await t.get('/api/mcp')).status, 405);
  assert.is((await t.get('/api/mcp/nope')).status, 404);
});

test.run();
