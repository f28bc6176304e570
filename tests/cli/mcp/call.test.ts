import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run as runCall } from '../../../cli/commands/mcp/call.js';
import { run as runTools } from '../../../cli/commands/mcp/tools.js';
import { AuthRequiredError, FailedError, UsageError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

const test = suite<{ t: McpTestApp; url: string; close(): Promise<void> }>('svc mcp call / tools');
let secret = '';
test.before(async (ctx) => {
  ctx.t = await createMcpTestApp();
  secret = ctx.t.keys.secret;
  const served = await serveTestApp(ctx.t);
  ctx.url = served.url;
  ctx.close = served.close;
});
test.after(async (ctx) => ctx.close());

const cliFor = (url: string, json = false, key = secret) =>
  createFakeCli({ json, env: { SVC_URL: url, SVC_SECRET_KEY: key } });

test("tools/call prints the tool's text; --json the raw result", async ({ t, url }) => {
  const cli = cliFor(url);
  await runCall({ params: '{"name":"whoami","arguments":{}}' }, cli.ctx, 'tools/call');
  assert.is(JSON.parse(cli.stdout()).company.name, 'acme');
  const json = cliFor(url, true);
  await runCall({ params: '{"name":"whoami"}' }, json.ctx, 'tools/call');
  assert.is(JSON.parse(json.stdout()).structuredContent.user.email, t.owner.user.email);
});

test('other methods print their result as JSON', async ({ url }) => {
  const cli = cliFor(url);
  await runCall({}, cli.ctx, 'ping');
  assert.equal(JSON.parse(cli.stdout()), {});
  const init = cliFor(url);
  await runCall({}, init.ctx, 'initialize');
  assert.is(JSON.parse(init.stdout()).protocolVersion, '2025-11-25');
});

test('a failing tool, a JSON-RPC error, bad --params, a refused key: CLI errors', async ({ t, url }) => {
  const failing = runCall(
    { params: '{"name":"quests","arguments":{"action":"get","id":"qst_x"}}' },
    cliFor(url).ctx,
    'tools/call',
  );
  await failing.then(
    () => assert.unreachable(),
    (err) => {
      assert.instance(err, FailedError);
      assert.match(err.message, /tool 'quests' failed: No quest qst_x in this Company\./);
    },
  );
  await runCall({}, cliFor(url).ctx, 'resources/list').then(
    () => assert.unreachable(),
    (err) => assert.match(err.message, /JSON-RPC -32601/),
  );
  await runCall({ params: '[1]' }, cliFor(url).ctx, 'tools/call').then(
    () => assert.unreachable(),
    (err) => assert.instance(err, UsageError),
  );
  await runCall({}, cliFor(url, false, 'sk_bad').ctx, 'ping').then(
    () => assert.unreachable(),
    (err) => assert.instance(err, AuthRequiredError),
  );
  await runCall({}, cliFor(url, false, t.keys.trial).ctx, 'ping').then(
    () => assert.unreachable(),
    (err) => {
      assert.instance(err, FailedError);
      assert.match(err.message, /Company subscription/);
    },
  );
  await runCall({}, createFakeCli({ env: { SVC_URL: url } }).ctx, 'ping').then(
    () => assert.unreachable(),
    (err) => assert.instance(err, AuthRequiredError),
  );
});

test('svc mcp tools lists names and first sentences; --json the list', async ({ url }) => {
  const cli = cliFor(url);
  await runTools({}, cli.ctx);
  assert.match(cli.stdout(), /^whoami\s+The user and Company/m);
  assert.match(cli.stdout(), /^events\s+/m);
  const json = cliFor(url, true);
  await runTools({}, json.ctx);
  assert.is(JSON.parse(json.stdout()).tools.length, 10);
});

test.run();
