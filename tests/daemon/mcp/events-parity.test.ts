import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callEventsTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/**
 * The `events` tool and the /api/events routes wrap the same services, so for the same Company and
 * the same input they must give the same answer (or the same error sentence). REST here is called
 * with the same secret key, through the gateway (X-Company).
 */
const test = suite<{ t: McpTestApp }>('mcp events tool ≡ REST /api/events');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

const tool = callEventsTool;

async function rest(t: McpTestApp, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
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

/** Ids and times differ between two creations; everything else must not. */
// `origin` names the call an event came from (a tools/call here, a REST call there): present on both, equal in kind.
const shape = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (k, v) =>
      ['id', 'created_at', 'configured_event_id', 'correlation_id', 'causation_id', 'updated_at', 'origin'].includes(k)
        ? typeof v
        : v,
    ),
  );

const calls = [{ tool: 'quests.create', args: { title: 'Look at it' } }];

test('create, enable, disable and delete answer the same', async ({ t }) => {
  const viaRest = await rest(t, 'POST', '/api/events', { type: 'session:stopped', tool_calls: calls, enabled: false });
  const viaTool = await tool(t, { action: 'create', type: 'session:stopped', tool_calls: calls, enabled: false });
  assert.equal(shape(viaTool), shape(viaRest));
  assert.is(viaTool.event.status, 'paused');
  const enabled = await tool(t, { action: 'enable', id: viaRest.event.id });
  assert.type(enabled.event.enabled_at, 'string');
  assert.equal(enabled, {
    ...viaRest,
    event: { ...viaRest.event, enabled: true, status: 'active', enabled_at: enabled.event.enabled_at },
  });
  assert.equal(
    await tool(t, { action: 'disable', id: viaRest.event.id }),
    await rest(t, 'POST', `/api/events/${viaRest.event.id}/disable`),
  );
  assert.equal(await tool(t, { action: 'delete', id: viaTool.event.id }), {
    ok: true,
    id: viaTool.event.id,
    deleted: true,
  });
  assert.equal(await rest(t, 'DELETE', `/api/events/${viaRest.event.id}`), {
    ok: true,
    id: viaRest.event.id,
    deleted: true,
  });
});

test('trigger (by type and by id), list, list configured and trace answer the same', async ({ t }) => {
  const cev = (await rest(t, 'POST', '/api/events', { type: 'session:stopped', tool_calls: calls })).event;
  const byTypeRest = await rest(t, 'POST', '/api/events/trigger', { type: 'session:stopped', content: { n: 1 } });
  const byTypeTool = await tool(t, { action: 'trigger', type: 'session:stopped', content: { n: 1 } });
  assert.equal(shape(byTypeTool), shape(byTypeRest));
  assert.is(byTypeTool.fired.length, 1);
  const byIdRest = await rest(t, 'POST', '/api/events/trigger', { configured_event_id: cev.id });
  const byIdTool = await tool(t, { action: 'trigger', id: cev.id });
  assert.equal(shape(byIdTool), shape(byIdRest));
  assert.equal(byIdTool.event.content, { fired_configured_event: cev.id });

  assert.equal(await tool(t, { action: 'list' }), await rest(t, 'GET', '/api/events'));
  assert.equal(
    await tool(t, { action: 'list', event_type: 'session:stopped', limit: 2 }),
    await rest(t, 'GET', '/api/events?event_type=session:stopped&limit=2'),
  );
  const first = byTypeRest.event.id;
  assert.equal(
    await tool(t, { action: 'list', since_id: first }),
    await rest(t, 'GET', `/api/events?since_id=${first}`),
  );
  const end = byIdTool.event.id;
  assert.equal(await tool(t, { action: 'list', since_id: end }), await rest(t, 'GET', `/api/events?since_id=${end}`));
  assert.equal(
    await tool(t, { action: 'list', configured: true }),
    await rest(t, 'GET', '/api/events?configured=true'),
  );
  assert.equal(
    await tool(t, { action: 'trace', event_id: first }),
    await rest(t, 'GET', `/api/events/trace?event_id=${first}`),
  );
});

test('refusals carry the same sentence', async ({ t }) => {
  const cases: [Record<string, unknown>, 'GET' | 'POST' | 'DELETE', string, unknown?][] = [
    [
      { action: 'create', type: 'agent.spawned', tool_calls: calls },
      'POST',
      '/api/events',
      { type: 'agent.spawned', tool_calls: calls },
    ],
    [
      { action: 'create', type: 'Cron Tick:x', tool_calls: calls },
      'POST',
      '/api/events',
      { type: 'Cron Tick:x', tool_calls: calls },
    ],
    [
      { action: 'create', type: 'session:stopped', tool_calls: [{ tool: 'nope', args: {} }] },
      'POST',
      '/api/events',
      { type: 'session:stopped', tool_calls: [{ tool: 'nope', args: {} }] },
    ],
    [
      { action: 'create', type: 'session:stopped', tool_calls: [{ tool: 'message_to', args: {} }] },
      'POST',
      '/api/events',
      { type: 'session:stopped', tool_calls: [{ tool: 'message_to', args: {} }] },
    ],
    [{ action: 'enable', id: 'cev_nope' }, 'POST', '/api/events/cev_nope/enable'],
    [{ action: 'delete', id: 'cev_nope' }, 'DELETE', '/api/events/cev_nope'],
    [{ action: 'trigger', id: 'cev_nope' }, 'POST', '/api/events/trigger', { configured_event_id: 'cev_nope' }],
    [{ action: 'trigger', type: 'quest.done' }, 'POST', '/api/events/trigger', { type: 'quest.done' }],
    [{ action: 'trace', event_id: 'ev_nope' }, 'GET', '/api/events/trace?event_id=ev_nope'],
    [{ action: 'list', since: 'yesterday' }, 'GET', '/api/events?since=yesterday'],
  ];
  for (const [args, method, url, body] of cases) {
    const viaTool = await tool(t, args);
    const viaRest = await rest(t, method, url, body);
    assert.ok(viaRest.error, url);
    assert.is(viaTool.error, viaRest.error, JSON.stringify(args));
  }
});

test.run();
