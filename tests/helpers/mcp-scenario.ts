import * as assert from 'uvu/assert';
import { ALL_TOOLS, type McpTestApp } from './mcp-app.js';

/** What the scenario needs of a client: the v1 and v2 SDK Clients both fit. */
export interface ScenarioClient {
  getServerVersion(): { name: string } | undefined;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<any>;
}
type Client = ScenarioClient;

/** Calls a tool and returns its structured result; a tool error fails the test with the tool's message. */
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as { text?: string }[])[0]?.text;
  if (r.isError) assert.unreachable(`${name} ${JSON.stringify(args)} failed: ${text}`);
  assert.equal(JSON.parse(text ?? 'null'), r.structuredContent, `${name}: the text block is the structured result`);
  return r.structuredContent;
}

/**
 * The MCP endpoint end to end, over any connected SDK Client (Streamable HTTP or the stdio relay), against
 * the real runtime: tools/list, whoami, every `events` action, and a quest created by a triggered
 * configured event, seen through the `quests` tool and in the runtime itself.
 */
export async function runEventsScenario(client: Client, t: McpTestApp): Promise<void> {
  assert.is(client.getServerVersion()?.name, 'svc');
  const { tools } = await client.listTools();
  assert.equal(tools.map((x) => x.name).sort(), [...ALL_TOOLS].sort());

  const who = await ok(client, 'whoami', {});
  assert.equal(who.company, { id: t.company.id, name: t.company.name });
  assert.is(who.user.email, t.owner.user.email);
  assert.is(who.account_key, true);

  const reviewer = (await ok(client, 'agents', { action: 'create', name: 'Rita', role: 'reviewer' })).agent;
  const tool_calls = [
    { tool: 'quests.create', args: { title: 'Follow up on the session' } },
    { tool: 'message_to', args: { to: 'reviewer', text: 'A session ended' } },
  ];
  const cev = (await ok(client, 'events', { action: 'create', type: 'session:stopped', tool_calls })).event;
  assert.is(cev.status, 'active');

  assert.is((await ok(client, 'events', { action: 'disable', id: cev.id })).event.status, 'paused');
  assert.equal((await ok(client, 'events', { action: 'trigger', type: 'session:stopped' })).fired, []);
  assert.is((await ok(client, 'events', { action: 'enable', id: cev.id })).event.status, 'active');

  const fired = await ok(client, 'events', { action: 'trigger', type: 'session:stopped', content: { reason: 'e2e' } });
  assert.equal(
    fired.fired.map((f: any) => [f.tool, f.ok]),
    [
      ['quests.create', true],
      ['message_to', true],
    ],
  );
  const quest = fired.fired[0].result;
  assert.is(fired.fired[1].result.agent_id, reviewer.id);

  const trace = await ok(client, 'events', { action: 'trace', event_id: fired.event.id });
  assert.is(trace.fired.length, 2);
  assert.equal(
    trace.children.map((c: any) => [c.event.type, c.event.causation_id]),
    [
      ['session:start', fired.event.id],
      ['session:execution_start', fired.event.id],
    ],
  );

  const log = await ok(client, 'events', { action: 'list' });
  assert.equal(
    log.events.map((e: any) => e.type),
    ['session:stopped', 'session:stopped', 'session:start', 'session:execution_start'],
  );
  assert.is(log.cursor, log.events[3].id);
  // The read-only half answers the same for the same arguments.
  assert.equal(await ok(client, 'events_read', { action: 'list' }), log);
  assert.equal(await ok(client, 'events_read', { action: 'trace', event_id: fired.event.id }), trace);
  const configured = await ok(client, 'events', { action: 'list', configured: true, event_type: 'session:stopped' });
  assert.ok(configured.events.some((e: any) => e.id === cev.id));

  const byId = await ok(client, 'events', { action: 'trigger', id: cev.id });
  assert.equal(byId.event.content, { fired_configured_event: cev.id });
  assert.is(byId.fired.length, 2);

  const quests = (await ok(client, 'quests', { action: 'list' })).quests;
  assert.equal(
    quests.map((q: any) => q.title),
    ['Follow up on the session', 'Follow up on the session'],
  );
  assert.is(quests[0].id, quest.id);
  assert.is((await ok(client, 'quests', { action: 'get', id: quest.id })).quest.status, 'open');
  assert.equal(await ok(client, 'quests_read', { action: 'list' }), { quests });
  assert.is((await (await t.services()).quests.get(quest.id))?.title, 'Follow up on the session');

  assert.equal(await ok(client, 'events', { action: 'delete', id: cev.id }), { ok: true, id: cev.id, deleted: true });
  const after = await ok(client, 'events', { action: 'list', configured: true, event_type: 'session:stopped' });
  assert.not.ok(after.events.some((e: any) => e.id === cev.id));
  const gone = await client.callTool({ name: 'events', arguments: { action: 'enable', id: cev.id } });
  assert.ok(gone.isError);
}
