import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { formatKey } from '../../../shared/keys.js';
import { run as runRelay } from '../../../cli/commands/mcp/serve.js';
import { currentCompanyKey } from '../../../cli/company.js';
import { accounts } from '../../../cli/credentials/index.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

const test = suite<{ t: McpTestApp; url: string; close(): Promise<void> }>('svc mcp relay');
test.before(async (ctx) => {
  ctx.t = await createMcpTestApp();
  const served = await serveTestApp(ctx.t);
  ctx.url = served.url;
  ctx.close = served.close;
});
test.after(async (ctx) => ctx.close());

const lines = (...messages: unknown[]) =>
  messages.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join('\n') + '\n';
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const whoami = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {} },
});

async function relay(stdin: string, env: Record<string, string | undefined>) {
  const cli = createFakeCli({ stdin, env });
  await runRelay({}, cli.ctx);
  const out = cli
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { out, stderr: cli.stderr(), cli };
}

test('one stdout line per response, none for a notification; a bad line gets a parse error and the relay goes on', async ({
  t,
  url,
}) => {
  const { out, stderr } = await relay(
    lines(
      initialize,
      initialized,
      '{not json',
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      whoami(3),
      [{ jsonrpc: '2.0', id: 4, method: 'ping' }],
      '',
    ),
    {
      SVC_URL: url,
      SVC_SECRET_KEY: t.keys.secret,
      SVC_ACCOUNT_KEY: t.keys.account,
    },
  );
  // Errors for lines with no usable id come at once; answers as the server gives them.
  assert.is(out.length, 5);
  const byId = (id: unknown) => out.filter((m) => m.id === id);
  assert.equal(
    byId(null)
      .map((m) => m.error.code)
      .sort(),
    [-32700, -32600].sort(),
  );
  assert.is(byId(1)[0].result.protocolVersion, '2025-11-25');
  assert.ok(byId(2)[0].result.tools.length >= 6);
  assert.is(byId(3)[0].result.structuredContent.company.id, t.company.id);
  assert.is(byId(3)[0].result.structuredContent.account_key, true);
  assert.match(stderr, /relaying stdio to/);
});

test('401: each request gets an error saying what to do; the notification none', async ({ url }) => {
  const { out } = await relay(lines(initialize, initialized, whoami(2)), {
    SVC_URL: url,
    SVC_SECRET_KEY: formatKey('secret', randomBytes(32)),
  });
  out.sort((a, b) => a.id - b.id);
  assert.equal(
    out.map((m) => m.id),
    [1, 2],
  );
  assert.is(out[0].error.code, -32000);
  assert.is(out[0].error.data.http_status, 401);
  assert.match(out[0].error.message, /svc keys create/);
  assert.match(out[0].error.message, /revoked or never existed/);
  assert.equal(out[1], { jsonrpc: '2.0', id: 2, error: out[0].error });
});

test('402: the message names the tier to get', async ({ t, url }) => {
  const { out } = await relay(lines(initialize), { SVC_URL: url, SVC_SECRET_KEY: t.keys.trial });
  assert.is(out[0].error.data.http_status, 402);
  assert.is(out[0].error.code, -32000);
  assert.match(out[0].error.message, /Company subscription.*trial tier.*svc admin tier/);
});

test('daemon down: an error per request telling to start it', async () => {
  const { out } = await relay(lines(initialize, whoami(2)), {
    SVC_URL: 'http://127.0.0.1:1',
    SVC_SECRET_KEY: formatKey('secret', randomBytes(32)),
  });
  out.sort((a, b) => a.id - b.id);
  assert.equal(
    out.map((m) => m.id),
    [1, 2],
  );
  assert.match(out[0].error.message, /Cannot reach the svc daemon at http:\/\/127\.0\.0\.1:1.*svc daemon start/);
});

test('no key anywhere: requests answered with how to set one, nothing sent', async ({ url }) => {
  const { out, stderr } = await relay(lines(initialize, initialized), {
    SVC_URL: url,
    SVC_SECRET_KEY: undefined,
    SVC_ACCOUNT_KEY: undefined,
  });
  assert.is(out.length, 1);
  assert.match(out[0].error.message, /SVC_SECRET_KEY/);
  // Not -32001: that is the SDK's request time-out, and a client would report a time-out.
  assert.equal([out[0].error.code, out[0].error.data], [-32000, { reason: 'no_secret_key' }]);
  assert.match(stderr, /No secret key/);
});

test('without the variables it uses the stored keys of the current Company', async ({ t, url }) => {
  const cli = createFakeCli({ stdin: lines(initialize, whoami(2)), env: { SVC_URL: url } });
  cli.credentials.set(accounts.secretKey(url, t.company.id), t.keys.secret);
  cli.credentials.set(accounts.accountKey(url), t.keys.account);
  cli.ctx.config().set(currentCompanyKey(url), { id: t.company.id, name: t.company.name });
  await runRelay({}, cli.ctx);
  const out = cli
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .sort((a, b) => a.id - b.id);
  assert.is(out[1].result.structuredContent.key_id, t.keys.secretId);
  assert.is(out[1].result.structuredContent.account_key, true);
});

test.run();
