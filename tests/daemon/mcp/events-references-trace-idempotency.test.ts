import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callEventsTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/** The events bus through the MCP `events` tool: references, armed, trace reasons, idempotency. */
const test = suite<{ t: McpTestApp }>('mcp events tool: references, armed names, trace, idempotency keys');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
});

const tool = callEventsTool;

test('references: resolved at dispatch; an unknown field refused at create', async ({ t }) => {
  const bad = await tool(t, {
    action: 'create',
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: '{{event.nope}}' } }],
  });
  assert.match(bad.error, /unknown field 'nope'/);
  await tool(t, {
    action: 'create',
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Fix {{event.content.what}}' } }],
  });
  const out = await tool(t, { action: 'trigger', type: 'loop:detected', content: { what: 'the build' } });
  assert.is(out.fired[0].result.title, 'Fix the build');
  assert.is(out.event.source, 'manual');
});

test('armed: a misspelt name is armed with the names that fire, and never fires by id', async ({ t }) => {
  const cfg = (
    await tool(t, {
      action: 'create',
      type: 'session:stoped',
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    })
  ).event;
  assert.is(cfg.status, 'armed');
  assert.ok(cfg.names_that_fire.includes('session:stopped'));
  const out = await tool(t, { action: 'trigger', id: cfg.id });
  assert.equal(out.fired, []);
  assert.equal(out.not_fired, [{ configured_event_id: cfg.id, reason: 'armed' }]);
});

test('trace lists what did not fire with its reason', async ({ t }) => {
  const paused = (
    await tool(t, {
      action: 'create',
      type: 'loop:detected',
      enabled: false,
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    })
  ).event;
  const out = await tool(t, { action: 'trigger', type: 'loop:detected' });
  const trace = await tool(t, { action: 'trace', event_id: out.event.id });
  assert.equal(trace.not_fired, [{ configured_event_id: paused.id, reason: 'paused' }]);
});

test('idempotency_key: a repeat answers the first answer and fires nothing; another request under it is refused', async ({
  t,
}) => {
  await tool(t, {
    action: 'create',
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: 'once' } }],
  });
  const first = await tool(t, { action: 'trigger', type: 'loop:detected', idempotency_key: 'mcp-1' });
  const again = await tool(t, { action: 'trigger', type: 'loop:detected', idempotency_key: 'mcp-1' });
  assert.equal(again, { ...first, replayed: true });
  const log = await tool(t, { action: 'list', event_type: 'loop:detected' });
  assert.is(log.events.length, 1);
  const other = await tool(t, {
    action: 'trigger',
    type: 'loop:detected',
    content: { n: 2 },
    idempotency_key: 'mcp-1',
  });
  assert.match(other.error, /different request/);
});

test.run();
