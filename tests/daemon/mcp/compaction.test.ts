import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { callMcpTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';

/** Compaction as delegation through MCP: configured per Company with a rule, or by the daemon's role. */
const tool = callMcpTool;

async function setUp(t: McpTestApp) {
  const ada = (await tool(t, 'agents', { action: 'create', name: 'Ada' })).agent;
  await tool(t, 'agents', { action: 'create', name: 'Sam', role: 'summarizer' });
  const session = (await tool(t, 'sessions', { action: 'create', agent_id: ada.id, context_budget: 50 })).session;
  return { ada, session };
}

test('per Company: a sessions.compact rule on context:budget:exceeded; the quests tool returns the summary', async () => {
  const t = await createMcpTestApp();
  const { ada, session } = await setUp(t);
  const rule = await tool(t, 'events', {
    action: 'create',
    type: 'context:budget:exceeded',
    tool_calls: [{ tool: 'sessions.compact', args: { role: 'summarizer' } }],
  });
  assert.is(rule.event.status, 'active');
  await tool(t, 'message_to', { to: ada.id, text: 'x'.repeat(60) });
  const pending = (await tool(t, 'sessions', { action: 'get', id: session.id })).session.compaction;
  assert.is(pending.status, 'pending');
  const again = await tool(t, 'sessions', { action: 'compact', id: session.id, role: 'summarizer' });
  assert.equal([again.started, again.quest.id], [false, pending.quest_id]);
  const quests = (await tool(t, 'quests', { action: 'list' })).quests;
  assert.equal(
    quests.map((q: any) => q.compaction_of),
    [session.id],
  );
  await tool(t, 'quests', { action: 'update', id: pending.quest_id, status: 'done', result: 'Ada said hello.' });
  const s = (await tool(t, 'sessions', { action: 'get', id: session.id })).session;
  assert.is(s.compaction.status, 'done');
  assert.is(s.context_summary.text, 'Ada said hello.');
  assert.is(s.context_used, 'Ada said hello.'.length);
  const done = await tool(t, 'events', { action: 'list', event_type: 'context:compaction:done' });
  assert.is(done.events.length, 1);
  // Without a daemon role, compact by hand needs one.
  const noRole = await tool(t, 'sessions', { action: 'compact', id: session.id });
  assert.match(noRole.error, /--compaction-role/);
});

test("the daemon's role (--compaction-role): a crossing starts it with no rule; compact by hand defaults to it", async () => {
  const t = await createMcpTestApp({ config: { compaction: { role: 'summarizer' } } });
  const { ada, session } = await setUp(t);
  await tool(t, 'message_to', { to: ada.id, text: 'x'.repeat(60) });
  const started = await tool(t, 'events', { action: 'list', event_type: 'context:compaction:started' });
  assert.is(started.events.length, 1);
  const quest_id = started.events[0].content.quest_id;
  await tool(t, 'quests', { action: 'update', id: quest_id, status: 'failed' });
  const s = (await tool(t, 'sessions', { action: 'get', id: session.id })).session;
  assert.equal([s.compaction.status, s.context_used, s.context_summary], ['failed', 60, undefined]);
  const retry = await tool(t, 'sessions', { action: 'compact', id: session.id });
  assert.is(retry.started, true);
  assert.is(retry.quest.compaction_of, session.id);
});

test.run();
