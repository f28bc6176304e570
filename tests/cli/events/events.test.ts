import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCreate } from '../../../cli/commands/events/create.js';
import { runList } from '../../../cli/commands/events/list.js';
import { runToggle } from '../../../cli/commands/events/toggle.js';
import { runTrace } from '../../../cli/commands/events/trace.js';
import { runTrigger } from '../../../cli/commands/events/trigger.js';
import { UsageError, ApiRequestError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';
import { createEmitterRegistry, RUNTIME_EMITTERS } from '../../../daemon/company/bus/emitters.js';

async function setup(json = false, runtime?: Parameters<typeof createRuntimeTestApp>[0]) {
  const t = await createRuntimeTestApp(runtime);
  const { api, calls } = createRuntimeApi(t);
  const cli = createFakeCli({ api, json });
  return { t, cli, calls };
}

test('create sends the pattern and tool calls with X-Company, and reports the status', async () => {
  const { t, cli, calls } = await setup();
  await runCreate(
    { company: 'acme', pattern: 'session:stopped', toolCalls: ['{"tool":"quests.create","args":{"title":"Wrap up"}}'] },
    cli.ctx,
  );
  assert.match(cli.stdout(), /^created cev_\S+ {2}session:stopped {2}\(active\)/);
  const post = calls.find((c) => c.method === 'POST')!;
  assert.is(post.headers['X-Company'], t.company.id);
  assert.equal((post.body as any).tool_calls, [{ tool: 'quests.create', args: { title: 'Wrap up' } }]);
  assert.is((await t.services.events.listConfigured()).length, 1);
});

test('create refuses a dotted name and bad tool-call JSON before calling the daemon', async () => {
  const { cli, calls } = await setup();
  const dotted = await runCreate({ company: 'acme', pattern: 'agent.spawned', toolCalls: [] }, cli.ctx).catch((e) => e);
  assert.instance(dotted, UsageError);
  assert.match(dotted.message, /dotted names are not patterns/);
  const bad = await runCreate({ company: 'acme', pattern: 'session:start', toolCalls: ['{tool:'] }, cli.ctx).catch(
    (e) => e,
  );
  assert.instance(bad, UsageError);
  assert.match(bad.message, /--tool-call is not valid JSON/);
  assert.is(calls.filter((c) => c.method === 'POST').length, 0);
});

test('an armed event is created with a note on stderr', async () => {
  // Every prefix has an emitter in the daemon's registry: a registry without `webhook` plays one that has none.
  const { cli } = await setup(false, { runtime: { emitters: createEmitterRegistry(RUNTIME_EMITTERS) } });
  await runCreate({ company: 'acme', pattern: 'webhook:github', toolCalls: [] }, cli.ctx);
  assert.match(cli.stdout(), /\(armed\)/);
  assert.match(cli.stderr(), "note: armed, so it will not fire: nothing on this daemon emits 'webhook:' events");
});

test('an unknown name under an emitted prefix: the note blames the name, not the prefix, and lists the names that fire', async () => {
  const { cli } = await setup();
  await runCreate({ company: 'acme', pattern: 'session:error', toolCalls: [] }, cli.ctx);
  assert.match(cli.stdout(), /\(armed\)/);
  assert.match(
    cli.stderr(),
    "note: armed, so it will not fire: no emitter produces 'session:error'; names that fire: ",
  );
  assert.match(cli.stderr(), 'session:start');
  assert.not.match(cli.stderr(), "nothing on this daemon emits 'session:'");
});

test('enable, disable and delete by id; an unknown id is a daemon 404', async () => {
  const { t, cli } = await setup();
  const cfg = await t.services.events.create({ type: 'session:start', tool_calls: [] });
  await runToggle('disable', cfg.id, { company: 'acme' }, cli.ctx);
  assert.is((await t.services.events.get(cfg.id))?.status, 'paused');
  await runToggle('enable', cfg.id, { company: 'acme' }, cli.ctx);
  await runToggle('delete', cfg.id, { company: 'acme' }, cli.ctx);
  assert.is(await t.services.events.get(cfg.id), undefined);
  assert.match(cli.stdout(), /paused[\s\S]*active[\s\S]*deleted/);
  const err = await runToggle('delete', cfg.id, { company: 'acme' }, cli.ctx).catch((e) => e);
  assert.instance(err, ApiRequestError);
  assert.is(err.status, 404);
});

test('list maps the filter flags to the query; --json prints the answer', async () => {
  const { t, cli, calls } = await setup(true);
  await t.services.events.emit({ type: 'session:step_start', agent_id: 'agt_1' });
  await t.services.events.emit({ type: 'session:step_start', agent_id: 'agt_2' });
  await runList({ company: 'acme', type: 'session:step_start', agent: 'agt_2', limit: 10 }, cli.ctx);
  const get = calls.find((c) => c.path === '/api/events')!;
  assert.equal(get.query, { event_type: 'session:step_start', agent_id: 'agt_2', limit: 10 });
  const out = JSON.parse(cli.stdout());
  assert.ok(Array.isArray(out), 'every list prints a bare array under --json');
  assert.is(out.length, 1);
  assert.not.match(cli.stderr(), /more:/, 'no next page');
});

test('list --configured shows patterns, statuses and tool calls', async () => {
  const { t, cli } = await setup();
  await t.services.events.create({
    type: 'session:stopped',
    tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
  });
  await runList({ company: 'acme', configured: true }, cli.ctx);
  assert.match(cli.stdout(), /cev_\S+ {2}active {2}session:stopped {2}quests\.create/);
});

test('trigger a pattern or a configured id; what fired is listed', async () => {
  const { t, cli, calls } = await setup();
  const cfg = await t.services.events.create({
    type: 'session:step_start',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Go' } }],
  });
  await runTrigger('session:step_start', { company: 'acme', content: '{"n":1}' }, cli.ctx);
  assert.match(cli.stdout(), /session:step_start[\s\S]*\{"n":1\}[\s\S]*ok {3}quests\.create/);
  await runTrigger(cfg.id, { company: 'acme' }, cli.ctx);
  assert.is((calls.at(-1)!.body as any).configured_event_id, cfg.id);
  assert.is((await t.services.quests.list()).length, 2);
  assert.instance(await runTrigger('idea.tagged', { company: 'acme' }, cli.ctx).catch((e) => e), UsageError);
});

test('trigger --idempotency-key sends the header; a repeat prints the first answer and fires nothing', async () => {
  const { t, cli, calls } = await setup();
  await t.services.events.create({
    type: 'loop:detected',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Go' } }],
  });
  await runTrigger('loop:detected', { company: 'acme', idempotencyKey: 'deploy-1' }, cli.ctx);
  const first = cli.stdout();
  await runTrigger('loop:detected', { company: 'acme', idempotencyKey: 'deploy-1' }, cli.ctx);
  assert.is(cli.stdout(), first + first);
  assert.is(calls.at(-1)!.headers['idempotency-key'], 'deploy-1');
  assert.is((await t.services.quests.list()).length, 1);
  assert.is((await t.services.events.list({ event_type: 'loop:detected' })).events.length, 1);
  const bad = await runTrigger('loop:detected', { company: 'acme', idempotencyKey: 'has space' }, cli.ctx).catch(
    (e) => e,
  );
  assert.instance(bad, UsageError);
  assert.match(bad.message, /--idempotency-key/);
});

test('trace prints the causation tree', async () => {
  const { t, cli } = await setup();
  await t.services.agents.create({ name: 'A', role: 'ops' });
  await t.services.events.create({
    type: 'session:quest_result',
    tool_calls: [{ tool: 'message_to', args: { to: 'ops', text: 'hi' } }],
  });
  const { event } = await t.services.events.emit({ type: 'session:quest_result' });
  await runTrace(event.id, { company: 'acme' }, cli.ctx);
  const lines = cli.stdout().trim().split('\n');
  assert.match(lines[0]!, /^session:quest_result {2}evt_/);
  assert.match(lines[1]!, /^├─ fired message_to \[ok\]/);
  assert.match(lines[2]!, /^├─ session:start {2}evt_/);
  assert.match(lines[3]!, /^└─ session:execution_start {2}evt_/);
});

test('trace draws what did not fire with its reason, the source, and the path up to the root cause', async () => {
  const { t, cli } = await setup();
  await t.services.agents.create({ name: 'A', role: 'ops' });
  const paused = await t.services.events.create({
    type: 'session:quest_result',
    enabled: false,
    tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
  });
  await t.services.events.create({
    type: 'session:quest_result',
    tool_calls: [{ tool: 'message_to', args: { to: 'ops', text: 'hi' } }],
  });
  const { event } = await t.services.events.emit({ type: 'session:quest_result', source: 'manual' });
  await runTrace(event.id, { company: 'acme' }, cli.ctx);
  const lines = cli.stdout().trim().split('\n');
  assert.match(lines[0]!, /^session:quest_result {2}evt_\S+ {2}\S+ {2}\[manual\]$/);
  assert.ok(lines.includes(`├─ not fired (paused)  (${paused.id})`), lines.join('\n'));
  const child = (await t.services.events.list({ event_type: 'session:start' })).events.at(-1)!;
  await runTrace(child.id, { company: 'acme' }, cli.ctx);
  const out = cli.stdout();
  assert.match(out, new RegExp(`caused by: session:quest_result  ${event.id}`));
});

test.run();
