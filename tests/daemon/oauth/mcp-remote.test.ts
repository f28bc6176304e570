import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { fill, press, waitForHeading } from '../../helpers/console-page.js';
import { createCompany } from '../../helpers/keys.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * mcp-remote (the stdio↔HTTP bridge desktop apps are configured with) pointed at the daemon with
 * no `--header` at all: it gets the 401, discovers the authorization server, registers, and prints
 * the authorization URL for a browser. Chromium opens that URL, lands on the console's consent page,
 * logs in there, picks the Company and allows; the page sends it on to mcp-remote's loopback
 * callback, on whatever port mcp-remote picked. mcp-remote then redeems the code, and tools/list
 * works through it, under the SDK's stdio client as a desktop app would run it.
 */
const test = suite('oauth: mcp-remote signs in with no header');
const require = createRequire(import.meta.url);
const MCP_REMOTE = join(dirname(require.resolve('mcp-remote/package.json')), 'dist/proxy.js');

test('mcp-remote: 401 → registration → Chromium on the consent page → callback → tools/list', async () => {
  const browser = await sharedBrowser();
  if (!browser) return;
  const daemon = await startConsoleDaemon();
  const { t, url } = daemon;
  const user = await createUser(t, { tier: 'company' });
  const companyId = (await createCompany(t, user)).id;
  const home = tempDir('mcp-remote-home');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_REMOTE, `${url}/api/mcp`, '--transport', 'http-only'],
    // No browser on PATH: mcp-remote prints the URL instead of opening one, and the test's Chromium is the browser.
    env: { PATH: tempDir('no-browser'), HOME: home, MCP_REMOTE_CONFIG_DIR: join(home, 'auth') },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'desktop-app', version: '1.0.0' });
  const { page, close } = await openPage(browser);
  try {
    const connecting = client.connect(transport, { timeout: 60_000 });
    const authorizationUrl = new URL(
      await waitFor(
        () => /visiting:\s*\n(\S+)/.exec(stderr)?.[1],
        () => stderr,
      ),
    );
    assert.is(authorizationUrl.origin + authorizationUrl.pathname, `${url}/oauth/authorize`);
    assert.is(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');

    // The browser: the authorization endpoint sends it to the console's consent page, where the
    // user logs in and allows; the page then sends it to mcp-remote's loopback callback.
    await page.goto(authorizationUrl.href);
    await waitForHeading(page, 'Log in to connect an app');
    await fill(page, 'E-mail', user.user.email!);
    await fill(page, 'Password', user.password);
    await press(page, 'Log in');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent?.startsWith('Connect '));
    await page.select('#consent-company', companyId);
    await press(page, 'Allow');
    await page.waitForFunction(() => location.hostname === 'localhost' && location.pathname.endsWith('/callback'));

    await connecting;
    const tools = await client.listTools();
    assert.ok(tools.tools.length > 0, 'tools/list through mcp-remote');
  } catch (err) {
    throw new Error(`${(err as Error).message}\nmcp-remote said:\n${stderr.slice(-3000)}`);
  } finally {
    await close();
    await client.close().catch(() => {});
    await daemon.close();
  }
});

/** Polls `read` until it yields a value (mcp-remote's output arrives in chunks), failing after 30 s. */
async function waitFor(read: () => string | undefined, context: () => string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const value = read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`mcp-remote printed no authorization URL:\n${context()}`);
}

test.run();
