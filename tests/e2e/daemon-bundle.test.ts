import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDaemonProcess, testSettingsEnv, type DaemonProcess } from '../helpers/daemon-process.js';
import { moduleLog } from '../helpers/module-log.js';
import { tempDir } from '../helpers/temp-dir.js';
import { mailedCode } from '../proof/lib/accounts.js';

/**
 * `svc daemon start --foreground` runs the daemon's bundle (scripts/build-daemon.mjs), not tsc's
 * per-file dist/daemon/ that the other tests import: these check, on a real process, that the bundle
 * starts from its own files only, keeps the lazy libraries lazy, and serves the routes that load them.
 */
const dist = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = tempDir('svc-bundle-data');
const cacheDir = tempDir('svc-bundle-cache');
const hook = moduleLog('daemon-bundle');
let daemon: DaemonProcess;
let atBanner: string[] = [];

test.before(async () => {
  daemon = await startDaemonProcess(dataDir, ['--default-tier', 'company'], {
    args: hook.args,
    env: { ...hook.env, ...testSettingsEnv(), SVC_CACHE_DIR: cacheDir },
  });
  atBanner = hook.read();
});
test.after(async () => {
  await daemon?.stop();
});

const filesOf = (urls: string[]) =>
  [...new Set(urls)]
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u))
    .map((p) => (p.startsWith(dist) ? p.slice(dist.length) : p.replace(/^.*\/node_modules\//, 'node_modules/')));

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(daemon.url + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
}

test('the start loads the CLI bundle and the daemon bundle only: no dist/daemon/ file, no package', () => {
  const files = filesOf(atBanner);
  assert.ok(files.includes('daemon-bundle/main.js'), files.join(' '));
  const outside = files.filter((f) => !/^(cli\/main\.js|cli-chunks\/[\w-]+\.js|daemon-bundle\/main\.js)$/.test(f));
  assert.equal(outside, [], `loaded outside the bundles: ${outside.join(' ')}`);
  // The bundle itself is run by vm.Script (shared/code-cache.ts), so the hook does not list it: it is there.
  assert.ok(readdirSync(join(dist, 'daemon-bundle')).some((f) => /^daemon-\w+\.cjs$/.test(f)));
});

test("V8's code cache of the start is written to the user's cache folder, never beside the bundle", async () => {
  const folder = () => join(cacheDir, 'code-cache');
  for (let i = 0; i < 100 && !existsSync(folder()); i++) await new Promise((r) => setTimeout(r, 50));
  const builds = readdirSync(folder());
  assert.equal(builds.length, 1, builds.join(' '));
  assert.match(builds[0]!, /^daemon-\w+-/);
  assert.ok(existsSync(join(folder(), builds[0]!, 'daemon.bin')));
  assert.equal(
    readdirSync(join(dist, 'daemon-bundle')).filter((f) => !/^(main\.js|daemon-\w+\.cjs)$/.test(f)),
    [],
  );
});

test('paths relative to the bundle hold: the web console is served, the banner names the CLI', async () => {
  const page = await call('GET', '/');
  assert.is(page.status, 200, page.text);
  assert.match(page.text, /<script/);
  assert.ok(daemon.stdout().includes(join(dist, 'cli/svc.cjs')), daemon.stdout());
});

test('the first wallet, passkey and MCP requests load their libraries and answer', async () => {
  const op = { authorization: `Bearer ${readFileSync(join(dataDir, 'operator-token'), 'utf8').trim()}` };
  const email = 'bundle@example.com';
  const password = 'correct horse battery staple';
  const invite = (await call('POST', '/api/dev/invites', {}, op)).body.code;
  assert.is((await call('POST', '/api/auth/signup', { email, password, invite_code: invite })).status, 200);
  const verified = await call('POST', '/api/auth/verify', {
    email,
    code: await mailedCode(daemon.url, dataDir, email),
  });
  assert.is(verified.status, 200, verified.text);
  const user = { authorization: `Bearer ${verified.body.token}` };
  const company = await call('POST', '/api/companies', { name: 'bundled' }, user);
  assert.is(company.status, 201, company.text);
  const key = await call('POST', '/api/keys', { root: company.body.id, name: 'mcp' }, user);
  assert.is(key.status, 201, key.text);

  const address = '0x52908400098527886E0F7030069857D2E4169EE7'; // an EIP-55 test vector
  assert.is((await call('POST', '/api/auth/wallet/nonce', { address })).status, 200);
  assert.is((await call('POST', '/api/auth/passkey/login-begin', {})).status, 200);
  const mcp = { authorization: `Bearer ${key.body.secret_key}`, accept: 'application/json, text/event-stream' };
  const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bundle', version: '1' } };
  const initialized = await call(
    'POST',
    '/api/mcp',
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: init },
    mcp,
  );
  assert.is(initialized.status, 200, initialized.text);
  const tools = await call('POST', '/api/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, mcp);
  assert.is(tools.status, 200, tools.text);
  assert.ok(
    tools.body.result.tools.some((t: { name: string }) => t.name === 'events'),
    tools.text,
  );

  const loaded = filesOf(hook.read());
  for (const name of ['ethers', 'siwe', '@simplewebauthn/server'])
    assert.ok(
      loaded.some((f) => f.startsWith(`node_modules/${name}/`)),
      `${name} was not loaded by its first request`,
    );
});

test.run();
