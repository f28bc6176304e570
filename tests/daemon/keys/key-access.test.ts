import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/** Scoped, expiring and rotating secret keys through the key routes, on every store (SECURITY.md case 21). */

const DAY = 86_400;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const mcpHeaders = (key: string) => ({ ...bearer(key), accept: 'application/json, text/event-stream' });
const whoami = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } };

for (const mode of testAppModes()) {
  const test = suite(`keys: scopes, expiry, rotation, explain: ${mode.name}`);
  let t: TestApp;
  let owner: TestUser;
  let co: { id: string; name: string };
  const create = (body: Record<string, unknown>, who: TestUser = owner) =>
    t.post('/api/keys', { root: co.id, name: 'ci', ...body }, who.auth);

  test.before.each(async () => {
    t = await mode.open();
    owner = await createUser(t, { tier: 'company' });
    co = await createCompany(t, owner, 'acme');
  });
  test.after.each(() => t.close());

  test('scopes: unknown or empty → 400 naming the problem; given ones are stored and listed; none means every scope', async () => {
    const unknown = await create({ scopes: ['events:read', 'events:fly'] });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'validation_failed');
    assert.match(unknown.body.error, "unknown scope 'events:fly'");
    assert.match(unknown.body.error, 'events:read, ');
    const empty = await create({ scopes: [] });
    assert.is(empty.status, 400);
    assert.match(empty.body.error, /scopes is empty/);
    assert.is((await create({ scopes: 'events:read' })).status, 400);
    assert.is((await create({ scopes: [7] })).status, 400);

    const scoped = await create({ scopes: ['events:trigger', 'events:read', 'events:read'] });
    assert.is(scoped.status, 201, scoped.text);
    assert.equal(scoped.body.scopes, ['events:read', 'events:trigger']);
    const all = await create({});
    assert.is(all.body.scopes, null);
    const list = (await t.get('/api/keys', owner.auth)).body.keys;
    assert.equal(
      list.map((k: any) => [k.scopes, k.expires_at, k.last_used_at, k.last_used_ip]),
      [
        [['events:read', 'events:trigger'], null, null, null],
        [null, null, null, null],
      ],
    );
  });

  test('REST outside the scopes → 403 insufficient_scope naming it; inside works; the use is recorded with its address', async () => {
    const { body } = await create({ scopes: ['agents:read'] });
    assert.is((await t.get('/api/agents', bearer(body.secret_key))).status, 200);
    const refused = await t.post('/api/agents', { name: 'x' }, bearer(body.secret_key));
    assert.is(refused.status, 403);
    assert.equal(
      { code: refused.body.code, required_scope: refused.body.required_scope },
      { code: 'insufficient_scope', required_scope: 'agents:write' },
    );
    assert.ok(refused.body.error.length > 0);
    const row = (await t.get('/api/keys', owner.auth)).body.keys[0];
    assert.ok(row.last_used_at);
    assert.type(row.last_used_ip, 'string');
  });

  test('expiry: expires_in or expires_at; the key works until then and answers 401 key_expired saying when, on REST and MCP', async () => {
    const both = await create({ expires_in: 60, expires_at: '2099-01-01T00:00:00Z' });
    assert.is(both.status, 400);
    assert.match(both.body.error, /not both/);
    assert.is((await create({ expires_in: 0 })).status, 400);
    assert.is((await create({ expires_in: 1.5 })).status, 400);
    assert.is((await create({ expires_at: 'tomorrow' })).status, 400);
    const past = await create({ expires_at: new Date(t.clock.now() - 1000).toISOString() });
    assert.is(past.status, 400);
    assert.match(past.body.error, /not in the future/);

    const { body } = await create({ expires_in: 3600 });
    const expiresAt = new Date(t.clock.now() + 3600_000).toISOString();
    assert.is(body.expires_at, expiresAt);
    const at = await create({ expires_at: '2099-01-01T00:00:00Z' });
    assert.is(at.body.expires_at, '2099-01-01T00:00:00.000Z');
    assert.is((await t.get('/api/agents', bearer(body.secret_key))).status, 200);
    t.clock.advance(3600_000 - 1);
    assert.is((await t.post('/api/mcp', whoami, mcpHeaders(body.secret_key))).status, 200);
    t.clock.advance(1);
    const rest = await t.get('/api/agents', bearer(body.secret_key));
    assert.is(rest.status, 401);
    assert.is(rest.body.code, 'key_expired');
    assert.match(rest.body.error, `expired at ${expiresAt}`);
    const mcp = await t.post('/api/mcp', whoami, mcpHeaders(body.secret_key));
    assert.is(mcp.status, 401);
    assert.is(mcp.body.code, 'key_expired');
    assert.match(String(mcp.headers['www-authenticate']), /error="invalid_token"/);
    assert.is((await t.post('/api/mcp/validate', {}, bearer(body.secret_key))).body.code, 'key_expired');
    const listed = (await t.get('/api/keys', owner.auth)).body.keys.find((k: any) => k.id === body.id);
    assert.is(listed.expires_at, expiresAt);
  });

  test('rotation: a new key with the same name, Company, scopes and lifetime; the old works through the overlap, then stops', async () => {
    const old = (await create({ scopes: ['agents:read'], expires_in: 30 * DAY })).body;
    t.clock.advance(600_000);
    const badOverlap = await t.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 31 * DAY }, owner.auth);
    assert.is(badOverlap.status, 400);
    assert.match(badOverlap.body.error, /at most 2592000/);
    assert.is((await t.post(`/api/keys/${old.id}/rotate`, {}, owner.auth)).status, 400);
    assert.is((await t.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: -1 }, owner.auth)).status, 400);

    const rotated = await t.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 3600 }, owner.auth);
    assert.is(rotated.status, 201, rotated.text);
    const fresh = rotated.body;
    assert.is.not(fresh.id, old.id);
    assert.is.not(fresh.secret_key, old.secret_key);
    assert.match(fresh.note, /shown only once/);
    assert.equal([fresh.name, fresh.company.id, fresh.scopes], ['ci', co.id, ['agents:read']]);
    assert.is(fresh.expires_at, new Date(t.clock.now() + 30 * DAY * 1000).toISOString(), 'the same lifetime, from now');
    assert.is(fresh.rotated_from.id, old.id);
    const again = await t.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 0 }, owner.auth);
    assert.is(again.status, 409);
    assert.is(again.body.code, 'key_already_rotated');

    assert.is((await t.get('/api/agents', bearer(old.secret_key))).status, 200);
    assert.is((await t.get('/api/agents', bearer(fresh.secret_key))).status, 200);
    assert.is(
      (await t.post('/api/keys/' + old.id + '/explain', { operation: 'GET /api/agents' }, owner.auth)).body.rule,
      'ok',
    );
    t.clock.advance(3600_000);
    const stopped = await t.get('/api/agents', bearer(old.secret_key));
    assert.is(stopped.status, 401);
    assert.is(stopped.body.code, 'invalid_key');
    assert.match(stopped.body.error, /rotated/);
    assert.is((await t.post('/api/mcp', whoami, mcpHeaders(old.secret_key))).status, 401);
    assert.is((await t.get('/api/agents', bearer(fresh.secret_key))).status, 200);
    const explained = await t.post(`/api/keys/${old.id}/explain`, { operation: 'GET /api/agents' }, owner.auth);
    assert.equal([explained.body.allowed, explained.body.rule], [false, 'revoked']);
    const listed = (await t.get('/api/keys', owner.auth)).body.keys.find((k: any) => k.id === old.id);
    assert.equal([listed.replaced_by, typeof listed.retires_at], [fresh.id, 'string']);
  });

  test('rotation with overlap 0 stops the old key on its next request; a key that never expired rotates into one that never does', async () => {
    const old = (await create({})).body;
    const fresh = (await t.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 0 }, owner.auth)).body;
    assert.is(fresh.expires_at, null);
    assert.is(fresh.scopes, null);
    assert.is((await t.get('/api/agents', bearer(old.secret_key))).status, 401);
    assert.is((await t.get('/api/agents', bearer(fresh.secret_key))).status, 200);
  });

  test("rotate and explain on another user's key (or an unknown one) → 404, nothing changes", async () => {
    const mine = (await create({})).body;
    const other = await createUser(t, { tier: 'company' });
    for (const path of [`/api/keys/${mine.id}/rotate`, `/api/keys/key_nope/rotate`]) {
      const res = await t.post(path, { overlap_seconds: 0 }, other.auth);
      assert.is(res.status, 404);
      assert.is(res.body.code, 'key_not_found');
    }
    for (const id of [mine.id, 'key_nope']) {
      const res = await t.post(`/api/keys/${id}/explain`, { operation: 'GET /api/agents' }, other.auth);
      assert.is(res.status, 404);
    }
    assert.is((await t.get('/api/agents', bearer(mine.secret_key))).status, 200);
    assert.is((await t.get('/api/keys', owner.auth)).body.keys.length, 1);
    assert.is(
      (await t.post(`/api/keys/${mine.id}/explain`, { operation: 'GET /api/agents' }, bearer(mine.secret_key))).status,
      401,
    );
  });

  test('explain: bad operations are a 400 saying what is understood; the verdict names rule and scope', async () => {
    const key = (await create({ scopes: ['events:read'] })).body;
    const ask = (operation: unknown) => t.post(`/api/keys/${key.id}/explain`, { operation }, owner.auth);
    for (const bad of [
      '',
      'hello',
      'GET /api/nope',
      'tools/call nope',
      'tools/call events',
      'tools/call events fly',
      'tools/call whoami x',
      7,
    ]) {
      const res = await ask(bad);
      assert.is(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.ok(res.body.error && res.body.code, res.text);
    }
    assert.equal((await ask('tools/call events trigger')).body, {
      allowed: false,
      rule: 'scope',
      required_scope: 'events:trigger',
      message: (await ask('tools/call events trigger')).body.message,
      operation: 'tools/call events trigger',
    });
    const rest = (await ask('GET /api/events/evt_1?x=1')).body;
    assert.equal([rest.allowed, rest.rule, rest.operation], [true, 'ok', 'GET /api/events/:id']);
    assert.is(
      (await ask('POST /api/events/trigger')).body.required_scope,
      'events:trigger',
      'the route that answers, not /api/events/:id',
    );
    assert.is((await ask('tools/call whoami')).body.allowed, true);
    await t.deps.stores.users.setTier(owner.user.id, 'trial');
    assert.is((await ask('GET /api/events')).body.rule, 'tier');
  });

  test('explain: a tool call the key may make but the per-key limit would refuse is rule rate_limit, counting nothing', async () => {
    const limited = await mode.open({ config: { mcpToolCallsPerMinute: 2 } });
    try {
      const me = await createUser(limited, { tier: 'company' });
      const company = await createCompany(limited, me, 'acme');
      const key = (await limited.post('/api/keys', { root: company.id, name: 'ci' }, me.auth)).body;
      const ask = async () =>
        (await limited.post(`/api/keys/${key.id}/explain`, { operation: 'tools/call whoami' }, me.auth)).body;
      const call = () => limited.post('/api/mcp', whoami, mcpHeaders(key.secret_key));
      // Asking does not use the allowance up: explain twice, then both calls still pass.
      assert.is((await ask()).rule, 'ok');
      assert.is((await ask()).rule, 'ok');
      assert.is((await call()).status, 200);
      assert.is((await call()).status, 200);
      const verdict = await ask();
      assert.equal([verdict.allowed, verdict.rule], [false, 'rate_limit']);
      assert.ok(verdict.retry_after > 0 && verdict.retry_after <= 60, String(verdict.retry_after));
      // The same verdict the real request gets.
      const refused = await call();
      assert.is(refused.status, 429);
      // A REST route has no per-key limit: explain says ok.
      const rest = await limited.post(`/api/keys/${key.id}/explain`, { operation: 'GET /api/events' }, me.auth);
      assert.is(rest.body.rule, 'ok');
      // A scope refusal comes first, as on the endpoint.
      const narrow = (
        await limited.post('/api/keys', { root: company.id, name: 'narrow', scopes: ['agents:read'] }, me.auth)
      ).body;
      const scoped = await limited.post(
        `/api/keys/${narrow.id}/explain`,
        { operation: 'tools/call events trigger' },
        me.auth,
      );
      assert.is(scoped.body.rule, 'scope');
    } finally {
      await limited.close();
    }
  });

  test('MCP: in a batch (2025-03-26), a call outside the scopes gets the scope error in its place; the others run', async () => {
    const { body } = await create({ scopes: ['agents:read'] });
    const call = (id: number, name: string, action: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: { action } },
    });
    const res = await t.post(
      '/api/mcp',
      [call(1, 'agents', 'list'), call(2, 'agents', 'create')],
      mcpHeaders(body.secret_key),
    );
    assert.is(res.status, 200, res.text);
    assert.ok(res.body[0].result, res.text);
    assert.equal(res.body[1].error.data, { code: 'insufficient_scope', required_scope: 'agents:write' });
  });

  test('a key with only events:trigger may trigger but not create; one with events:write may not trigger', async () => {
    const trigger = (await create({ scopes: ['events:trigger'] })).body.secret_key;
    const write = (await create({ scopes: ['events:write'] })).body.secret_key;
    assert.ok(
      [200, 201].includes((await t.post('/api/events/trigger', { type: 'session:stopped' }, bearer(trigger))).status),
    );
    const refused = await t.post('/api/events/trigger', { type: 'session:stopped' }, bearer(write));
    assert.equal([refused.status, refused.body.required_scope], [403, 'events:trigger']);
    const create403 = await t.post('/api/events', { type: 'session:stopped', tool_calls: [] }, bearer(trigger));
    assert.equal([create403.status, create403.body.required_scope], [403, 'events:write']);
  });

  test.run();
}

const capped = suite('keys: the longest lifetime (--max-key-lifetime)');

capped(
  'over the cap → 400 naming it; no expiry asked → the cap; at the cap → fine; rotation keeps within it',
  async () => {
    const { createTestApp } = await import('../../helpers/test-app.js');
    const t = await createTestApp({ config: { maxKeyLifetimeSeconds: 7 * DAY } });
    const owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    const create = (body: object) => t.post('/api/keys', { root: co.id, name: 'ci', ...body }, owner.auth);
    const over = await create({ expires_in: 7 * DAY + 1 });
    assert.is(over.status, 400);
    assert.is(over.body.code, 'key_lifetime_too_long');
    assert.match(over.body.error, '1w (604800 seconds');
    assert.is(over.body.max_key_lifetime_seconds, 7 * DAY);
    assert.is((await create({ expires_at: '2099-01-01T00:00:00Z' })).status, 400);
    const none = await create({});
    assert.is(none.body.expires_at, new Date(t.clock.now() + 7 * DAY * 1000).toISOString());
    assert.is((await create({ expires_in: 7 * DAY })).status, 201);
    const rotated = await t.post(`/api/keys/${none.body.id}/rotate`, { overlap_seconds: 60 }, owner.auth);
    assert.is(rotated.body.expires_at, new Date(t.clock.now() + 7 * DAY * 1000).toISOString());
    await t.close();
  },
);

capped.run();
