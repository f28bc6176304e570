import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callEventsTool as tool, callMcpTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/**
 * Flow control through the MCP `events` tool: the create fields, failures and their replay, the
 * dry run, a schedule's backfill and the chain budget — each answering what its /api/events route
 * answers, refusing bad arguments as a tool error, and refused to a key without the scope.
 */
const test = suite<{ t: McpTestApp }>('mcp events tool: flow control, failures, preview, backfill, budget');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

async function rest(t: McpTestApp, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await t.request({
    method,
    url,
    headers: {
      authorization: `Bearer ${t.keys.secret}`,
      'x-company': t.company.id,
      'content-type': 'application/json',
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status >= 400 ? { error: res.body.error } : res.body;
}

const failing = { tool: 'message_to', args: { to: 'reviewer', text: 'hi' } };

test('create takes throttle, debounce and concurrency; a throttled trigger says so; a bad policy is refused', async ({
  t,
}) => {
  const made = await tool(t, {
    action: 'create',
    type: 'loop:detected',
    throttle: { limit: 1, period_ms: 60_000 },
    concurrency: { key: '{{event.agent_id}}', limit: 2 },
    debounce: null,
    tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
  });
  assert.equal(
    [made.event.throttle, made.event.concurrency],
    [
      { limit: 1, period_ms: 60_000 },
      { key: '{{event.agent_id}}', limit: 2 },
    ],
  );
  assert.is((await tool(t, { action: 'trigger', type: 'loop:detected' })).fired.length, 1);
  const second = await tool(t, { action: 'trigger', type: 'loop:detected' });
  assert.equal(second.not_fired, [{ configured_event_id: made.event.id, reason: 'throttled' }]);
  const bad = await tool(t, { action: 'create', type: 'loop:detected', throttle: { limit: 0, period_ms: 1 } });
  assert.match(bad.error, /throttle\.limit: must be at least 1/);
  const debounced = await tool(t, {
    action: 'create',
    type: 'session:stopped',
    debounce: { period_ms: 5000, max_wait_ms: 1000 },
  });
  assert.match(debounced.error, /debounce\.max_wait_ms: 1000 is below period_ms 5000/);
});

test('failures lists a failed call; replay runs it once, a second replay does nothing; REST answers the same', async ({
  t,
}) => {
  const cfg = (await tool(t, { action: 'create', type: 'loop:detected', tool_calls: [failing] })).event.id;
  await tool(t, { action: 'trigger', type: 'loop:detected' });
  const { failures } = await tool(t, { action: 'failures', configured_event_id: cfg });
  assert.is(failures.length, 1);
  assert.equal(failures, (await rest(t, 'GET', `/api/events/failures?configured_event_id=${cfg}`)).failures);
  assert.is(failures[0].tool, 'message_to');
  await (await t.services()).agents.create({ name: 'Rita', role: 'reviewer' });
  const first = await tool(t, { action: 'replay', failure_id: failures[0].id });
  assert.is(first.ok, true);
  assert.equal(
    first.replayed.map((r: any) => [r.failure_id, r.ok]),
    [[failures[0].id, true]],
  );
  const again = await tool(t, { action: 'replay', failure_id: failures[0].id });
  assert.equal(again.replayed, []);
  assert.equal(again.skipped, [
    { failure_id: failures[0].id, reason: 'already_replayed', replay_event_id: first.replayed[0].event_id },
  ]);
  const replayEvent = (await tool(t, { action: 'list', event_type: 'loop:detected' })).events.at(-1);
  assert.is(replayEvent.source, 'replay');
  // In bulk: nothing of the rule is left to replay.
  const bulk = await tool(t, { action: 'replay', configured_event_id: cfg });
  assert.equal([bulk.replayed, bulk.skipped], [[], []]);
  assert.match((await tool(t, { action: 'replay' })).error, /needs 'failure_id'.*or 'configured_event_id'/);
  assert.match((await tool(t, { action: 'replay', failure_id: 'nope' })).error, /No failure nope/);
  assert.match((await tool(t, { action: 'failures', since: 'yesterday' })).error, /since: must be an ISO 8601 time/);
});

test('preview answers what POST /api/events/preview answers, and what live dispatch then does', async ({ t }) => {
  await tool(t, { action: 'trigger', type: 'loop:detected' });
  await tool(t, { action: 'trigger', type: 'loop:detected' });
  const rule = {
    type: 'loop:detected',
    concurrency: { limit: 1 },
    tool_calls: [{ tool: 'quests.create', args: { title: 'Fix {{event.type}}' } }],
  };
  const since = '2026-01-15T11:00:00Z';
  const viaTool = await tool(t, { action: 'preview', rule, since });
  assert.equal(viaTool, await rest(t, 'POST', '/api/events/preview', { event: rule, since }));
  assert.is(viaTool.would_fire.length, 1);
  assert.equal(viaTool.would_fire[0].tool_calls, [{ tool: 'quests.create', args: { title: 'Fix loop:detected' } }]);
  assert.equal(
    viaTool.not_fired.map((n: any) => n.reason),
    ['concurrency'],
  );
  assert.equal(await tool(t, { action: 'list', configured: true, event_type: 'loop:detected' }), { events: [] });
  assert.match((await tool(t, { action: 'preview', rule })).error, /needs 'since'/);
  assert.match((await tool(t, { action: 'preview', since, rule: { type: 'agent.spawned' } })).error, /dotted name/);
});

test('backfill runs the past ticks of a schedule; not a schedule, the future and a missing field are refused', async ({
  t,
}) => {
  const schedule = (
    await tool(t, {
      action: 'create',
      type: 'schedule:0 * * * *',
      tool_calls: [{ tool: 'quests.create', args: { title: 'tick {{event.content.tick}}' } }],
    })
  ).event.id;
  const out = await tool(t, {
    action: 'backfill',
    id: schedule,
    from: '2026-01-15T08:30:00Z',
    to: '2026-01-15T10:00:00Z',
  });
  assert.equal(
    out.fired.map((f: any) => f.tick),
    ['2026-01-15T09:00:00.000Z', '2026-01-15T10:00:00.000Z'],
  );
  assert.equal(out.skipped, []);
  const tick = (await tool(t, { action: 'trace', event_id: out.fired[0].event_id })).event;
  assert.equal(tick.content, { tick: '2026-01-15T09:00:00.000Z', scheduled: 'schedule:0 * * * *', backfill: true });
  const other = (await tool(t, { action: 'create', type: 'loop:detected' })).event.id;
  assert.match(
    (await tool(t, { action: 'backfill', id: other, from: '2026-01-15T08:00:00Z', to: '2026-01-15T09:00:00Z' })).error,
    /not a schedule/,
  );
  assert.match(
    (await tool(t, { action: 'backfill', id: schedule, from: '2026-01-15T08:00:00Z', to: '2026-02-15T09:00:00Z' }))
      .error,
    /in the future/,
  );
  assert.match((await tool(t, { action: 'backfill', id: schedule, from: '2026-01-15T08:00:00Z' })).error, /needs 'to'/);
});

test('get_budget and set_budget: the Company setting REST reads; bad values refused naming the field', async ({
  t,
}) => {
  assert.equal(await tool(t, { action: 'get_budget' }), { budget: null });
  const set = await tool(t, { action: 'set_budget', max_firings: 3, within_ms: 60_000 });
  assert.equal(set, { ok: true, budget: { max_firings: 3, max_tool_calls: null, within_ms: 60_000 } });
  assert.equal(await rest(t, 'GET', '/api/events/budget'), { budget: set.budget });
  assert.match(
    (await tool(t, { action: 'set_budget', max_firings: 3, within_ms: 10 })).error,
    /within_ms: must be at least 1000/,
  );
  assert.match((await tool(t, { action: 'set_budget', max_firings: 3 })).error, /needs 'within_ms'/);
  assert.equal(await tool(t, { action: 'set_budget', within_ms: 60_000 }), { ok: true, budget: null });
});

test('a key with events:read reads failures, previews and the budget, and is refused replay, backfill and set_budget', async ({
  t,
}) => {
  const made = await t.post(
    '/api/keys',
    { root: t.company.id, name: 'monitor', scopes: ['events:read'] },
    t.owner.auth,
  );
  const headers = { authorization: `Bearer ${made.body.secret_key}` };
  const call = (name: string, args: Record<string, unknown>) =>
    t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headers);
  for (const [name, args] of [
    ['events', { action: 'failures' }],
    ['events_read', { action: 'failures' }],
    ['events_read', { action: 'get_budget' }],
    ['events_read', { action: 'preview', since: '2026-01-15T11:00:00Z', rule: { type: 'loop:detected' } }],
  ] as const) {
    const res = await call(name, args);
    assert.is(res.status, 200, `${name} ${args.action}`);
    assert.not.ok(res.body.result.isError, `${name} ${args.action}: ${JSON.stringify(res.body)}`);
  }
  for (const args of [
    { action: 'replay', failure_id: 'x' },
    { action: 'backfill', id: 'cev_x', from: '2026-01-15T08:00:00Z', to: '2026-01-15T09:00:00Z' },
    { action: 'set_budget', within_ms: 60_000 },
  ]) {
    const res = await call('events', args);
    assert.is(res.status, 403, args.action);
    assert.match(String(res.headers['www-authenticate']), 'scope="events:write"', args.action);
  }
  // The read-only half has no writing action at all.
  assert.match(
    String((await callMcpTool(t, 'events_read', { action: 'replay', failure_id: 'x' })).error),
    /Invalid arguments/,
  );
});

test.run();
