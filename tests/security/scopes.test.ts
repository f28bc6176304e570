import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner } from '../proof/lib/accounts.js';
import { PAST_THROTTLES, securityModes, type Remote } from './remote.js';

/** SECURITY.md attack case 21 (a key outside its scopes, an expired key), against a real daemon process. */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack case 21 (scopes and expiry) (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const sk = (key: string) => ({ authorization: `Bearer ${key}` });
  const mcp = (key: string, body: unknown) =>
    r.app.post('/api/mcp', body, { ...sk(key), accept: 'application/json, text/event-stream' });

  test('case 21: outside its scopes → 403 insufficient_scope (REST) and HTTP 403 with the Bearer challenge (MCP)', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'scoped@example.com');
    const made = await r.app.post(
      '/api/keys',
      { root: w.company.id, name: 'monitor', scopes: ['events:read'] },
      w.owner.auth,
    );
    const key = made.body.secret_key as string;
    assert.is((await r.app.get('/api/events', sk(key))).status, 200, 'the control: inside its scopes');
    for (const [method, path, scope] of [
      ['POST', '/api/events/trigger', 'events:trigger'],
      ['POST', '/api/events', 'events:write'],
      ['GET', '/api/agents', 'agents:read'],
      ['POST', '/api/channels', 'channels:write'],
    ] as const) {
      const res = method === 'GET' ? await r.app.get(path, sk(key)) : await r.app.post(path, { type: 'x:y' }, sk(key));
      assert.is(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal([res.body.code, res.body.required_scope], ['insufficient_scope', scope]);
    }
    const call = await mcp(key, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'events', arguments: { action: 'trigger', type: 'x:y' } },
    });
    assert.is(call.status, 403);
    assert.match(
      String(call.headers['www-authenticate']),
      /^Bearer .*error="insufficient_scope", scope="events:trigger"/,
    );
    assert.is(call.body.error.data.required_scope, 'events:trigger');
    assert.is((await r.app.get('/api/events?event_type=x:y', w.tenant)).body.events.length, 0, 'nothing fired');
    // The same user's session keeps every scope; the key's own Company is all it reaches.
    assert.is((await r.app.get('/api/agents', w.tenant)).status, 200);
  });

  test('case 21: an expired key → 401 key_expired saying when, on its next request, REST and MCP', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'expiring@example.com');
    const made = await r.app.post('/api/keys', { root: w.company.id, name: 'ci', expires_in: 120 }, w.owner.auth);
    const key = made.body.secret_key as string;
    assert.is((await r.app.post('/api/mcp/validate', {}, sk(key))).status, 200);
    r.advance(120_000);
    const rest = await r.app.get('/api/agents', sk(key));
    assert.equal([rest.status, rest.body.code], [401, 'key_expired']);
    assert.match(rest.body.error, `expired at ${made.body.expires_at}`);
    const over = await mcp(key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal([over.status, over.body.code], [401, 'key_expired']);
  });

  test.run();
}
