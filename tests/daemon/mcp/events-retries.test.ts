import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OpenedRuntime } from '../../../daemon/company/open-company.js';
import { callEventsTool as tool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/** Through the MCP `events` tool: retries in trace, and per-schedule policy. */
const test = suite<{ t: McpTestApp; runtime: OpenedRuntime }>('mcp events tool: retries and schedule policy');
test.before.each(async (ctx) => {
  ctx.t = await createMcpTestApp();
  ctx.runtime = (await ctx.t.deps.runtimes.open(ctx.t.company)) as OpenedRuntime;
});

test('retry: a bad policy is refused; a failed call is retried and every attempt is in trace', async ({
  t,
  runtime,
}) => {
  const bad = await tool(t, {
    action: 'create',
    type: 'loop:detected',
    retry: { max_attempts: 20 },
    tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'x' } }],
  });
  assert.match(bad.error, /retry\.max_attempts: must be at most 10/);
  const cfg = (
    await tool(t, {
      action: 'create',
      type: 'loop:detected',
      retry: { max_attempts: 2, backoff: { initial_ms: 5000, jitter: 'decorrelated' } },
      tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'x' } }],
    })
  ).event;
  assert.equal(cfg.retry, { max_attempts: 2, backoff: { initial_ms: 5000, max_ms: 600_000, jitter: 'decorrelated' } });
  const out = await tool(t, { action: 'trigger', type: 'loop:detected' });
  // Decorrelated: the first wait is drawn in [initial_ms, 3 · initial_ms].
  const wait = Date.parse(out.fired[0].next_attempt_at) - t.clock.now();
  assert.ok(wait >= 5000 && wait <= 15_000, String(wait));
  assert.is(out.fired[0].attempt, 1);
  const services = await t.services();
  await services.agents.create({ name: 'Rita', role: 'reviewer' });
  t.clock.advance(wait);
  await runtime.retries.walk();
  const trace = await tool(t, { action: 'trace', event_id: out.event.id });
  assert.equal(
    trace.fired.map((f: any) => [f.attempt, f.ok, f.outcome ?? null]),
    [
      [1, false, null],
      [2, true, 'succeeded'],
    ],
  );
  assert.match(trace.fired[0].error, /reviewer/);
});

test('schedule_policy: refused when bad or on another pattern, listed whole, and used by the walk', async ({
  t,
  runtime,
}) => {
  const bad = await tool(t, {
    action: 'create',
    type: 'schedule:@hourly',
    schedule_policy: { start_at: '2026-02-01T00:00:00Z', end_at: '2026-01-01T00:00:00Z' },
  });
  assert.match(bad.error, /is not after start_at/);
  const other = await tool(t, { action: 'create', type: 'loop:detected', schedule_policy: { overlap: 'skip' } });
  assert.match(other.error, /only to 'schedule:' patterns/);
  await runtime.scheduler.walk();
  const made = (
    await tool(t, {
      action: 'create',
      type: 'schedule:0 * * * *',
      schedule_policy: { catch_up: 'all', max_catch_up: 2, overlap: 'skip' },
      tool_calls: [{ tool: 'quests.create', args: { title: 'hourly' } }],
    })
  ).event;
  const listed = (await tool(t, { action: 'list', configured: true, event_type: 'schedule:0 * * * *' })).events;
  assert.equal(listed.find((e: any) => e.id === made.id).schedule_policy, {
    catch_up: 'all',
    max_catch_up: 2,
    overlap: 'skip',
    start_at: null,
    end_at: null,
  });
  await runtime.scheduler.walk();
  t.clock.advance(5 * 3_600_000);
  const report = await runtime.scheduler.walk();
  assert.is(report.fired.filter((f) => f.id === made.id).length, 2, 'all, capped at 2');
});

test.run();
