import { createServer } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../helpers/runtime-app.js';
import { runMain } from '../../helpers/cli.js';

/** The real CLI (commander flags, undici client, exit codes) against the runtime app on a loopback port. */
async function run(t: RuntimeTestApp, argv: string[]) {
  const server = createServer(t.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    return await runMain(['--url', url, ...argv], { SVC_TOKEN: 'test' });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

test('events create takes repeated --tool-call flags and --company', async () => {
  const t = await createRuntimeTestApp();
  const res = await run(t, [
    'events',
    'create',
    '--company',
    'acme',
    '--pattern',
    'session:stopped',
    '--tool-call',
    '{"tool":"quests.create","args":{"title":"one"}}',
    '--tool-call',
    '{"tool":"message_to","args":{"to":"ops","text":"two"}}',
    '--json',
  ]);
  assert.is(res.code, 0, res.err);
  const event = JSON.parse(res.out);
  assert.equal(
    event.tool_calls.map((c: any) => c.tool),
    ['quests.create', 'message_to'],
  );
});

test('a daemon 400 becomes exit 2 with its message; a dotted pattern never reaches the daemon', async () => {
  const t = await createRuntimeTestApp();
  const bad = await run(t, [
    'events',
    'create',
    '--company',
    'acme',
    '--pattern',
    'session:x',
    '--tool-call',
    '{"tool":"nope"}',
  ]);
  assert.is(bad.code, 2);
  assert.match(bad.err, /unknown tool 'nope'/);
  const dotted = await run(t, ['events', 'trigger', 'agent.spawned', '--company', 'acme']);
  assert.is(dotted.code, 2);
  assert.match(dotted.err, /dotted names are not patterns/);
});

test('events list, trigger and trace through the real client', async () => {
  const t = await createRuntimeTestApp();
  const trig = await run(t, [
    'events',
    'trigger',
    'session:custom',
    '--content',
    '{"n":1}',
    '--company',
    'cmp_test',
    '--json',
  ]);
  assert.is(trig.code, 0, trig.err);
  const id = JSON.parse(trig.out).event.id;
  const list = await run(t, ['events', 'list', '--company', 'acme', '--type', 'session:custom', '--limit', '5']);
  assert.match(list.out, new RegExp(`session:custom  ${id}  \\{"n":1\\}`));
  const trace = await run(t, ['events', 'trace', id, '--company', 'acme']);
  assert.match(trace.out, /^session:custom {2}evt_/);
  assert.is((await run(t, ['events', 'list', '--company', 'acme', '--limit', '0'])).code, 2);
  assert.is((await run(t, ['events', 'list', '--company', 'other'])).code, 1);
});

test.run();
