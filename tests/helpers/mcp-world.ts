import * as assert from 'uvu/assert';
import { callMcpTool, type McpTestApp } from './mcp-app.js';

/** A Company with one of everything the tools act on, made through the tools themselves. */
export interface McpWorld {
  agent: string;
  session: string;
  quest: string;
  configured: string;
  event: string;
  /** An hourly schedule (a marker), to backfill. */
  schedule: string;
  /** A failed call (a message to a role nobody has), to replay. */
  failure: string;
  /** The fake clock's time once seeded: backfill ranges end before it. */
  now: number;
}

export async function seedMcpWorld(t: McpTestApp): Promise<McpWorld> {
  const ok = async (name: string, args: Record<string, unknown>) => {
    const answer = await callMcpTool(t, name, args);
    if (answer.error) assert.unreachable(`${name} ${JSON.stringify(args)}: ${answer.error}`);
    return answer;
  };
  const agent = (await ok('agents', { action: 'create', name: 'Rita', role: 'reviewer' })).agent.id;
  await ok('agents', { action: 'create', name: 'Sam', role: 'summarizer' });
  const session = (await ok('sessions', { action: 'create', agent_id: agent })).session.id;
  const quest = (await ok('quests', { action: 'create', title: 'Look', agent_id: agent })).quest.id;
  const configured = (
    await ok('events', {
      action: 'create',
      type: 'session:stopped',
      tool_calls: [{ tool: 'quests.create', args: { title: 'Follow up' } }],
    })
  ).event.id;
  const event = (await ok('events', { action: 'trigger', type: 'session:stopped', session_id: session })).event.id;
  const schedule = (await ok('events', { action: 'create', type: 'schedule:0 * * * *' })).event.id;
  await ok('events', {
    action: 'create',
    type: 'loop:detected',
    tool_calls: [{ tool: 'message_to', args: { to: 'nobody', text: 'x' } }],
  });
  await ok('events', { action: 'trigger', type: 'loop:detected' });
  const failure = (await ok('events', { action: 'failures' })).failures[0].id;
  return { agent, session, quest, configured, event, schedule, failure, now: t.clock.now() };
}

/**
 * One call for every action of every tool, with arguments that succeed on a seeded world, in an
 * order in which each still can (what ends a record comes last). `action` is '' for a tool without.
 */
export function everyToolCall(w: McpWorld): { tool: string; action: string; args: Record<string, unknown> }[] {
  const calls: [string, Record<string, unknown>][] = [
    ['whoami', {}],
    ['events_read', { action: 'list', event_type: 'session:stopped' }],
    ['events_read', { action: 'trace', event_id: w.event }],
    ['events_read', { action: 'failures' }],
    ['events_read', { action: 'preview', rule: PREVIEWED, since: iso(w.now - 86_400_000) }],
    ['events_read', { action: 'get_budget' }],
    ['quests_read', { action: 'list', status: 'open' }],
    ['quests_read', { action: 'get', id: w.quest }],
    ['agents_read', { action: 'list' }],
    ['sessions_read', { action: 'list', agent_id: w.agent }],
    ['sessions_read', { action: 'get', id: w.session }],
    ['events', { action: 'list', limit: 5 }],
    ['events', { action: 'trace', event_id: w.event }],
    ['events', { action: 'failures', since: iso(w.now - 86_400_000) }],
    ['events', { action: 'preview', rule: PREVIEWED, since: iso(w.now - 86_400_000), until: iso(w.now) }],
    ['events', { action: 'get_budget' }],
    ['events', { action: 'replay', failure_id: w.failure }],
    ['events', { action: 'backfill', id: w.schedule, from: iso(w.now - 3 * 3_600_000), to: iso(w.now - 1) }],
    ['events', { action: 'create', type: 'question:asked' }],
    ['events', { action: 'update', id: w.configured, throttle: { limit: 100, period_ms: 60_000 } }],
    ['events', { action: 'disable', id: w.configured }],
    ['events', { action: 'enable', id: w.configured }],
    ['events', { action: 'trigger', type: 'session:stopped', idempotency_key: 'k1' }],
    ['events', { action: 'trigger', type: 'session:stopped', idempotency_key: 'k1' }],
    ['quests', { action: 'list' }],
    ['quests', { action: 'get', id: w.quest }],
    ['quests', { action: 'create', title: 'Write notes' }],
    ['quests', { action: 'update', id: w.quest, status: 'done', result: 'Three pages.' }],
    ['agents', { action: 'list' }],
    ['agents', { action: 'create', name: 'Ada' }],
    ['sessions', { action: 'list', status: 'active' }],
    ['sessions', { action: 'get', id: w.session }],
    ['sessions', { action: 'create', agent_id: w.agent, context_budget: 1000 }],
    ['sessions', { action: 'compact', id: w.session, role: 'summarizer' }],
    ['message_to', { to: 'reviewer', text: 'hello', idempotency_key: 'm1' }],
    ['message_to', { to: 'reviewer', text: 'hello', idempotency_key: 'm1' }],
    ['sessions', { action: 'stop', id: w.session }],
    ['events', { action: 'set_budget', max_firings: 1000, max_tool_calls: null, within_ms: 60_000 }],
    ['events', { action: 'delete', id: w.configured }],
  ];
  return calls.map(([tool, args]) => ({ tool, action: String(args.action ?? ''), args }));
}

const iso = (ms: number) => new Date(ms).toISOString();
const PREVIEWED = {
  type: 'session:stopped',
  concurrency: { limit: 1 },
  tool_calls: [{ tool: 'quests.create', args: { title: 'Follow up' } }],
};

/** Every (tool, action) pair tools/list offers, as `tool action`. */
export function listedActions(tools: { name: string; inputSchema: { properties?: Record<string, any> } }[]): string[] {
  return tools.flatMap((t) => (t.inputSchema.properties?.action?.enum ?? ['']).map((a: string) => `${t.name} ${a}`));
}
