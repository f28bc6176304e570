import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ALL_SCOPES, type Scope } from '../../../shared/scopes.js';
import { ROUTE_SCOPES, TOOL_SCOPES } from '../../../daemon/access/operation-scopes.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { ALL_TOOLS } from '../../helpers/mcp-app.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * The whole scope table over HTTP, on every store: for each Company route and each MCP tool action,
 * a key holding just its scope gets past the scope check, a key holding every other scope is refused
 * with the REST or MCP 403 naming it, and explain gives the verdict the request got.
 */

const concrete = (pattern: string) => pattern.replace(/:id\b/g, 'zz_missing').replace(/:name\b/g, 'nochan');

for (const mode of testAppModes()) {
  const test = suite(`scope table over HTTP and MCP: ${mode.name}`);
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof createUser>>;
  const only = new Map<Scope, { id: string; key: string }>();
  const allBut = new Map<Scope, { id: string; key: string }>();

  test.before(async () => {
    t = await mode.open();
    owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    const make = async (scopes: string[]) => {
      const res = await t.post('/api/keys', { root: co.id, name: 'scoped', scopes }, owner.auth);
      assert.is(res.status, 201, res.text);
      return { id: res.body.id as string, key: res.body.secret_key as string };
    };
    for (const scope of ALL_SCOPES) {
      only.set(scope, await make([scope]));
      allBut.set(scope, await make(ALL_SCOPES.filter((s) => s !== scope)));
    }
  });
  test.after(() => t.close());

  const explain = (keyId: string, operation: string) => t.post(`/api/keys/${keyId}/explain`, { operation }, owner.auth);

  test('every Company route: its scope passes, every other scope is refused 403 insufficient_scope; explain agrees', async () => {
    for (const [row, scope] of Object.entries(ROUTE_SCOPES)) {
      const [method, pattern] = row.split(' ') as [string, string];
      const url = concrete(pattern);
      const send = (key: string) =>
        t.request({
          method: method as 'GET',
          url,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
      const good = only.get(scope)!;
      const goodExplained = await explain(good.id, `${method} ${url}`);
      assert.is(goodExplained.status, 200, goodExplained.text);
      assert.equal(goodExplained.body.allowed, true, row);
      assert.is(goodExplained.body.operation, row);
      // The event stream answers by streaming: its allowed request is left to the stream's own tests.
      if (pattern !== '/api/events/stream') {
        const passed = await send(good.key);
        assert.ok(
          passed.status !== 403 && passed.status !== 401,
          `${row} with ${scope}: ${passed.status} ${passed.text}`,
        );
      }

      const bad = allBut.get(scope)!;
      const refused = await send(bad.key);
      assert.is(refused.status, 403, `${row} without ${scope}: ${refused.text}`);
      assert.is(refused.body.code, 'insufficient_scope');
      assert.is(refused.body.required_scope, scope);
      assert.match(refused.body.error, scope);
      const badExplained = await explain(bad.id, `${method} ${url}`);
      assert.equal(
        {
          allowed: badExplained.body.allowed,
          rule: badExplained.body.rule,
          required_scope: badExplained.body.required_scope,
        },
        { allowed: false, rule: 'scope', required_scope: scope },
        row,
      );
    }
  });

  test('every MCP tool action: its scope passes, every other is an HTTP 403 with the step-up challenge; explain agrees', async () => {
    let id = 1;
    const call = (key: string, name: string, action?: string) =>
      t.post(
        '/api/mcp',
        { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: action ? { action } : {} } },
        { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' },
      );
    for (const [tool, entry] of Object.entries(TOOL_SCOPES)) {
      const rows: Array<[string | undefined, Scope | null]> =
        entry === null || typeof entry === 'string' ? [[undefined, entry]] : Object.entries(entry);
      for (const [action, scope] of rows) {
        const operation = ['tools/call', tool, ...(action ? [action] : [])].join(' ');
        if (scope === null) {
          // whoami: any key, even one whose only scope is unrelated.
          const res = await call(only.get('channels:read')!.key, tool, action);
          assert.is(res.status, 200, res.text);
          assert.is((await explain(only.get('channels:read')!.id, operation)).body.allowed, true);
          continue;
        }
        const good = only.get(scope)!;
        const passed = await call(good.key, tool, action);
        assert.is(passed.status, 200, `${operation}: ${passed.text}`);
        assert.ok(passed.body.result, `${operation} with ${scope} ran the tool (a tool error is fine): ${passed.text}`);
        assert.is((await explain(good.id, operation)).body.allowed, true, operation);

        const bad = allBut.get(scope)!;
        const refused = await call(bad.key, tool, action);
        assert.is(refused.status, 403, `${operation} without ${scope}: ${refused.text}`);
        assert.is(
          refused.headers['www-authenticate'],
          `Bearer realm="svc", error="insufficient_scope", scope="${scope}", error_description="This credential lacks the scope this call needs."`,
        );
        assert.is(refused.body.jsonrpc, '2.0');
        assert.equal(refused.body.error.data, { code: 'insufficient_scope', required_scope: scope });
        assert.match(refused.body.error.message, scope);
        const explained = (await explain(bad.id, operation)).body;
        assert.equal(
          { allowed: explained.allowed, rule: explained.rule, required_scope: explained.required_scope },
          { allowed: false, rule: 'scope', required_scope: scope },
        );
      }
    }
  });

  test('tools/list shows a key the tools it may call: a tool with any allowed action, whoami always', async () => {
    const list = async (key: string) => {
      const res = await t.post(
        '/api/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' },
      );
      return (res.body.result.tools as { name: string }[]).map((x) => x.name);
    };
    assert.equal(await list(only.get('events:trigger')!.key), ['whoami', 'events']);
    assert.equal(await list(only.get('messages:send')!.key), ['whoami', 'message_to']);
    assert.equal(await list(only.get('channels:write')!.key), ['whoami']);
    assert.equal(await list(allBut.get('channels:write')!.key), ALL_TOOLS);
  });

  test('a user session keeps full access to its Companies', async () => {
    const co = await createCompany(t, owner, 'session co');
    const headers = { ...owner.auth, 'x-company': co.id };
    assert.ok([200, 201].includes((await t.post('/api/events/trigger', { type: 'session:stopped' }, headers)).status));
    assert.is((await t.get('/api/channels', headers)).status, 200);
  });

  test.run();
}
