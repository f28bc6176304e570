import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENTS_EXAMPLES } from '../../../daemon/mcp/tools/events.js';
import { connectV1Http } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * The `events` tool as a model meets it: its description and schemas from tools/list, read by the
 * SDK client. Nothing in them may steer wrong, and every example in them must work when copied.
 */
const test = suite('mcp: the events tool description, read by a model');

async function setUp() {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  const client = await connectV1Http(served.url, { secret: t.keys.secret });
  const tool = (await client.listTools()).tools.find((x) => x.name === 'events')!;
  const call = async (args: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'events', arguments: args });
    if (r.isError) assert.unreachable(`${JSON.stringify(args)} failed: ${(r.content as { text: string }[])[0]!.text}`);
    return r.structuredContent as any;
  };
  return { t, client, tool, call, close: async () => (await client.close(), await served.close()) };
}

test('no prefix that never fires, no tool configured events refuse, no reference to a spec the model cannot read', async () => {
  const { tool, close } = await setUp();
  try {
    const text = JSON.stringify(tool);
    for (const wrong of ['quest:completed', 'sessions.create', '§', 'spec '])
      assert.not.ok(text.includes(wrong), wrong);
    const props = (tool.inputSchema.properties ?? {}) as Record<string, any>;
    assert.is(props.content.type, 'object');
    assert.equal(props.tool_calls.items.properties.tool.enum, [
      'quests.create',
      'quests.update',
      'message_to',
      'sessions.update',
      'sessions.compact',
    ]);
    for (const [name, schema] of Object.entries(props)) assert.ok(schema.description, `${name} has a description`);
    const out = tool.outputSchema!.properties as Record<string, any>;
    // A firing, or (backfill) a tick: the firing's fields are described for the model.
    assert.ok(out.fired.items.anyOf[0].properties.result.description);
    assert.ok(out.event.description && out.events.description && out.children.description);
  } finally {
    await close();
  }
});

test('every example in the description is there verbatim, runs as copied, and each configured event it creates fires', async () => {
  const { t, tool, call, close } = await setUp();
  try {
    const listed = tool.description!.split('Examples (arguments): ')[1]!.split(' ; ');
    assert.equal(listed, EVENTS_EXAMPLES);
    const created: string[] = [];
    for (const example of listed) {
      const answer = await call(JSON.parse(example));
      if (answer.event?.id?.startsWith('cev_')) {
        assert.is(answer.event.status, 'active', `${example} is active, not armed`);
        created.push(answer.event.id);
      }
    }
    assert.is(created.length, 3);
    // The trigger example fired the first created event; each created one also fires by id.
    const log = await call({ action: 'list' });
    const triggered = log.events.find((e: any) => e.type === 'session:stopped');
    const trace = await call({ action: 'trace', event_id: triggered.id });
    assert.equal(
      trace.fired.map((f: any) => [f.configured_event_id, f.ok]),
      [[created[0], true]],
    );
    for (const id of created) {
      const fired = await call({ action: 'trigger', id });
      assert.equal(
        fired.fired.map((f: any) => [f.tool, f.ok]),
        [['quests.create', true]],
      );
    }
    const titles = (await (await t.services()).quests.list({})).map((q: any) => q.title);
    assert.equal(titles, [
      'Review the stopped session',
      'Review the stopped session',
      'Morning review',
      'Review the violation',
    ]);
  } finally {
    await close();
  }
});

test('the examples inside the field descriptions work too: the matcher, the content, the default content of a fire by id', async () => {
  const { t, call, close } = await setUp();
  try {
    const agent = await (await t.services()).agents.create({ name: 'Ada', role: 'research' });
    const scoped = await call({
      action: 'create',
      type: 'session:stopped',
      matcher: { kind: 'exact', agent_id: agent.id },
      tool_calls: [{ tool: 'message_to', args: { to: 'research', text: 'The session stopped.' } }],
    });
    assert.is(scoped.event.status, 'active');
    const other = await call({ action: 'trigger', type: 'session:stopped', content: { reason: 'manual' } });
    assert.equal(other.fired, []);
    const mine = await call({
      action: 'trigger',
      type: 'session:stopped',
      agent_id: agent.id,
      content: { reason: 'manual' },
    });
    assert.equal(
      mine.fired.map((f: any) => [f.tool, f.ok]),
      [['message_to', true]],
    );
    const byId = await call({ action: 'trigger', id: scoped.event.id });
    assert.equal(byId.event.content, { fired_configured_event: scoped.event.id });
  } finally {
    await close();
  }
});

test('the description warns that a name matters, and an unknown name answers armed_reason and names_that_fire as it says', async () => {
  const { tool, call, close } = await setUp();
  try {
    assert.match(tool.description!, 'a name its emitter never produces (session:error) is also stored armed');
    assert.match(JSON.stringify(tool.outputSchema), 'names_that_fire');
    const made = await call({ action: 'create', type: 'session:error', tool_calls: [] });
    assert.is(made.event.status, 'armed');
    assert.match(made.event.armed_reason, "no emitter produces 'session:error'");
    assert.ok(made.event.names_that_fire.includes('session:stopped'));
  } finally {
    await close();
  }
});

test.run();
