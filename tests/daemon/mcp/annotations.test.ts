import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ToolAnnotations } from '../../../daemon/mcp/tools/types.js';
import { callMcpTool, createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';
import { everyToolCall, listedActions, seedMcpWorld } from '../../helpers/mcp-world.js';

/**
 * The annotations clients act on (skip a confirmation for a read, warn before a destructive call),
 * one row per tool: a tool added without a row fails here. The read-only rows are then held to it:
 * every action of every read-only tool runs, and nothing in the Company changes.
 */
const test = suite('mcp tool annotations say what each tool does');

const row = (readOnly: boolean, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  // Every tool acts on this daemon's Company runtime only: nothing reaches outside.
  openWorldHint: false,
});
const READS = row(true, false, true);
const EXPECTED: Record<string, ToolAnnotations> = {
  whoami: READS,
  events_read: READS,
  quests_read: READS,
  agents_read: READS,
  sessions_read: READS,
  // delete removes; trigger runs whatever the configured events say.
  events: row(false, true, false),
  // update overwrites and can close a quest for good.
  quests: row(false, true, false),
  // create only adds, and emits nothing for a configured event to act on.
  agents: row(false, false, false),
  // stop ends a session.
  sessions: row(false, true, false),
  // the turn it starts emits events whose configured events may stop sessions or close quests.
  message_to: row(false, true, false),
};

async function listTools(t: McpTestApp) {
  const res = await t.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  return res.body.result.tools as { name: string; annotations: ToolAnnotations; inputSchema: any }[];
}

test('every tool carries all four hints, as the table says', async () => {
  const t = await createMcpTestApp();
  const tools = await listTools(t);
  assert.equal(tools.map((x) => x.name).sort(), Object.keys(EXPECTED).sort());
  for (const tool of tools) assert.equal(tool.annotations, EXPECTED[tool.name], tool.name);
});

/** The Company's state as its services report it, and the bytes of its runtime's files on disk. */
async function snapshot(t: McpTestApp): Promise<unknown> {
  const s = await t.services();
  const dir = join(t.deps.config.dataDir, 'companies', t.company.id);
  const files = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)],
    );
  return {
    agents: await s.agents.list(),
    sessions: await s.sessions.list(),
    quests: await s.quests.list(),
    events: await s.events.list({ limit: 1000 }),
    configured: await s.events.listConfigured({}),
    files: Object.fromEntries(
      files(dir).map((f) => [f.slice(dir.length), createHash('sha256').update(readFileSync(f)).digest('hex')]),
    ),
  };
}

test('read-only tools write nothing: every action of each, and the Company is byte for byte the same', async () => {
  // File storage, so "nothing changed" covers what is on disk; no call budget, so no limiter write.
  const t = await createMcpTestApp({ storage: 'file', config: { mcpToolCallsPerMinute: 0 } });
  const world = await seedMcpWorld(t);
  const tools = await listTools(t);
  const readOnly = tools.filter((x) => x.annotations.readOnlyHint).map((x) => x.name);
  const calls = everyToolCall(world).filter((c) => readOnly.includes(c.tool));
  // The calls cover every action of every read-only tool.
  assert.equal(
    [...new Set(calls.map((c) => `${c.tool} ${c.action}`))].sort(),
    listedActions(tools.filter((x) => readOnly.includes(x.name))).sort(),
  );
  const before = await snapshot(t);
  for (const call of calls) {
    const answer = await callMcpTool(t, call.tool, call.args);
    assert.not.ok(answer.error, `${call.tool} ${JSON.stringify(call.args)}: ${answer.error}`);
  }
  assert.equal(await snapshot(t), before);
});

test('a read-only half answers what its parent answers, and refuses the parent’s writes', async () => {
  const t = await createMcpTestApp();
  const world = await seedMcpWorld(t);
  const same = async (name: string, parent: string, args: Record<string, unknown>) =>
    assert.equal(await callMcpTool(t, name, args), await callMcpTool(t, parent, args), `${name} ${args.action}`);
  await same('events_read', 'events', { action: 'list', limit: 3 });
  await same('events_read', 'events', { action: 'list', configured: true });
  await same('events_read', 'events', { action: 'trace', event_id: world.event });
  await same('quests_read', 'quests', { action: 'get', id: world.quest });
  await same('sessions_read', 'sessions', { action: 'list', agent_id: world.agent });
  await same('agents_read', 'agents', { action: 'list' });
  // Without an action, a read-only half lists.
  assert.equal(await callMcpTool(t, 'agents_read', {}), await callMcpTool(t, 'agents', { action: 'list' }));
  for (const [name, args] of [
    ['events_read', { action: 'delete', id: world.configured }],
    ['events_read', { action: 'list', tool_calls: [] }],
    ['quests_read', { action: 'update', id: world.quest, status: 'failed' }],
    ['sessions_read', { action: 'stop', id: world.session }],
    ['agents_read', { action: 'create', name: 'Eve' }],
  ] as const) {
    const refused = await callMcpTool(t, name, args);
    assert.match(String(refused.error), new RegExp(`^Invalid arguments for tool '${name}'`), name);
  }
  assert.is((await callMcpTool(t, 'quests', { action: 'get', id: world.quest })).quest.status, 'open');
  assert.is((await callMcpTool(t, 'sessions', { action: 'get', id: world.session })).session.status, 'active');
});

test('agents (not destructive) only adds: every record there before is there after, unchanged', async () => {
  const t = await createMcpTestApp({ storage: 'file', config: { mcpToolCallsPerMinute: 0 } });
  const world = await seedMcpWorld(t);
  const before = (await snapshot(t)) as Record<string, any>;
  for (const call of everyToolCall(world).filter((c) => c.tool === 'agents'))
    assert.not.ok((await callMcpTool(t, call.tool, call.args)).error);
  const after = (await snapshot(t)) as Record<string, any>;
  for (const key of ['agents', 'sessions', 'quests', 'configured'])
    for (const record of before[key] as unknown[])
      assert.ok(
        (after[key] as unknown[]).some((x) => JSON.stringify(x) === JSON.stringify(record)),
        `${key}: ${JSON.stringify(record)}`,
      );
  assert.is(after.agents.length, before.agents.length + 1);
});

test.run();
