import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callEventsTool as tool, callMcpTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/**
 * The `events` tool's update action: a configured event changed in place, as PATCH /api/events/{id}
 * changes it — the same answer, the same refusals in the same words, the same scope.
 */
const test = suite<{ t: McpTestApp }>('mcp events tool: update');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

async function patch(t: McpTestApp, id: string, body: unknown) {
  const res = await t.request({
    method: 'PATCH',
    url: `/api/events/${id}`,
    headers: {
      authorization: `Bearer ${t.keys.secret}`,
      'x-company': t.company.id,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
  return res.status >= 400 ? { error: res.body.error, status: res.status } : res.body;
}

const rule = { type: 'loop:detected', tool_calls: [{ tool: 'quests.create', args: { title: 'look' } }] };

test('update adds a throttle that then holds firings back, and null removes it; REST reads the same event', async ({
  t,
}) => {
  const id = (await tool(t, { action: 'create', ...rule })).event.id;
  const updated = await tool(t, {
    action: 'update',
    id,
    throttle: { key: '{{event.agent_id}}', limit: 1, period_ms: 3_600_000 },
  });
  assert.is(updated.ok, true);
  assert.equal(updated.event.throttle, { key: '{{event.agent_id}}', limit: 1, period_ms: 3_600_000 });
  assert.equal(updated.event.tool_calls, rule.tool_calls, 'fields not given are left as they were');
  const got = await t.get(`/api/events/${id}`, { authorization: `Bearer ${t.keys.secret}`, 'x-company': t.company.id });
  assert.equal(got.body.event, updated.event);
  assert.is((await tool(t, { action: 'trigger', type: 'loop:detected' })).fired.length, 1);
  const held = await tool(t, { action: 'trigger', type: 'loop:detected' });
  assert.equal(held.not_fired, [{ configured_event_id: id, reason: 'throttled' }]);
  const cleared = await tool(t, { action: 'update', id, throttle: null, concurrency: { limit: 2 } });
  assert.is(cleared.event.throttle, null);
  assert.equal(cleared.event.concurrency, { limit: 2 });
  assert.is((await tool(t, { action: 'trigger', type: 'loop:detected' })).fired.length, 1);
});

test('update changes what PATCH changes: tool calls, enabled, retry', async ({ t }) => {
  const id = (await tool(t, { action: 'create', ...rule })).event.id;
  const calls = [{ tool: 'quests.create', args: { title: 'again {{event.type}}' } }];
  const viaTool = await tool(t, {
    action: 'update',
    id,
    tool_calls: calls,
    enabled: false,
    retry: { max_attempts: 2 },
  });
  const id2 = (await tool(t, { action: 'create', ...rule })).event.id;
  const viaRest = await patch(t, id2, { tool_calls: calls, enabled: false, retry: { max_attempts: 2 } });
  const same = (e: any) => ({ ...e, id: undefined, created_at: undefined, updated_at: undefined });
  assert.equal(same(viaTool.event), same(viaRest.event));
  assert.is(viaTool.event.enabled, false);
  assert.is(viaTool.event.retry.max_attempts, 2);
});

test('update refuses what PATCH refuses, in the same words', async ({ t }) => {
  const id = (await tool(t, { action: 'create', ...rule })).event.id;
  for (const change of [
    { throttle: { limit: 0, period_ms: 1000 } },
    { debounce: { period_ms: 5000, max_wait_ms: 1000 } },
    { concurrency: { limit: 1, key: '{{agent_id}}' } },
    { throttle: { limit: 1, period_ms: 1000, burst: 2 } },
    { tool_calls: [{ tool: 'no.such', args: {} }] },
    { retry: { max_attempts: 99 } },
  ]) {
    const rest = await patch(t, id, change);
    assert.is(rest.status, 400, JSON.stringify(change));
    assert.is((await tool(t, { action: 'update', id, ...change })).error, rest.error, JSON.stringify(change));
  }
  const gone = await patch(t, 'cev_nope', { enabled: false });
  assert.is(gone.status, 404);
  assert.is((await tool(t, { action: 'update', id: 'cev_nope', enabled: false })).error, gone.error);
  assert.match((await tool(t, { action: 'update', enabled: false })).error, /needs 'id'/);
  // Nothing of the refused changes was kept.
  const [kept] = (await tool(t, { action: 'list', configured: true, event_type: 'loop:detected' })).events;
  assert.equal(
    JSON.parse(JSON.stringify([kept.id, kept.throttle, kept.debounce, kept.concurrency, kept.retry, kept.enabled])),
    [id, null, null, null, null, true],
  );
  assert.equal(JSON.stringify(kept.tool_calls), JSON.stringify(rule.tool_calls));
});

test('update needs events:write, as PATCH does; the read-only half has no update', async ({ t }) => {
  const id = (await tool(t, { action: 'create', ...rule })).event.id;
  const keyWith = async (scopes: string[]) =>
    (await t.post('/api/keys', { root: t.company.id, name: scopes.join(' '), scopes }, t.owner.auth)).body
      .secret_key as string;
  const call = async (key: string, name: string) =>
    t.mcp(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: { action: 'update', id, enabled: false } },
      },
      { authorization: `Bearer ${key}` },
    );
  for (const scopes of [['events:read'], ['events:trigger']]) {
    const res = await call(await keyWith(scopes), 'events');
    assert.is(res.status, 403, scopes.join());
    assert.match(String(res.headers['www-authenticate']), 'scope="events:write"');
  }
  const allowed = await call(await keyWith(['events:write']), 'events');
  assert.is(allowed.status, 200);
  assert.is(allowed.body.result.structuredContent.event.enabled, false);
  assert.match(String((await callMcpTool(t, 'events_read', { action: 'update', id })).error), /Invalid arguments/);
});

test.run();
