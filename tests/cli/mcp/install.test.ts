import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInstall } from '../../../cli/commands/mcp/install.js';
import { runUninstall } from '../../../cli/commands/mcp/uninstall.js';
import { FailedError, UsageError } from '../../../cli/errors.js';
import { configPathOf, MCP_CLIENTS, type Place } from '../../../cli/mcp-install/clients.js';
import { createFakeCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

const NODE = '/usr/bin/node';
const BIN = '/opt/svc/dist/cli/svc.cjs';
const linux = (): Place => ({ platform: 'linux', home: tempDir('svc-home'), env: {} });

/** What each client's file held before: someone else's server and a setting of the client's own. */
const before = (key: string): Record<string, any> => ({
  theme: 'dark',
  [key]: { other: { command: 'npx', args: ['-y', 'other-server'], env: { OTHER_TOKEN: 'theirs' } } },
  ...(key === 'servers' ? { inputs: [{ id: 'x', type: 'promptString' }] } : {}),
});

for (const client of MCP_CLIENTS) {
  test(`${client}: install adds svc beside the other entries, backs the file up, reinstall updates, uninstall removes only svc`, async () => {
    const place = linux();
    const file = configPathOf(client, place);
    const key = client === 'vscode' ? 'servers' : 'mcpServers';
    mkdirSync(dirname(file), { recursive: true });
    const old = JSON.stringify(before(key), null, 2);
    writeFileSync(file, old);

    const cli = createFakeCli({ env: { SVC_PROFILE: 'work' } });
    await runInstall({ client, place, node: NODE, bin: BIN }, cli.ctx);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    const expected = {
      ...(client === 'claude-code' || client === 'vscode' ? { type: 'stdio' } : {}),
      command: NODE,
      args: [BIN, 'mcp', '--profile', 'work'],
    };
    assert.equal(written[key]['svc-work'], expected);
    assert.equal(written[key].other, before(key)[key].other, 'the unrelated entry is kept as it was');
    assert.is(written.theme, 'dark');
    if (key === 'servers') assert.equal(written.inputs, [{ id: 'x', type: 'promptString' }]);
    const backups = readdirSync(dirname(file)).filter((f) => f.endsWith('.bak'));
    assert.is(backups.length, 1);
    assert.is(readFileSync(join(dirname(file), backups[0]!), 'utf8'), old);
    assert.not.match(readFileSync(file, 'utf8'), /sk_|ak_|eyJ/, 'no secret in the file');
    assert.match(cli.stdout(), /added 'svc-work'/);

    const again = createFakeCli({ env: { SVC_PROFILE: 'work' } });
    await runInstall({ client, place, node: NODE, bin: BIN }, again.ctx);
    assert.match(again.stdout(), /updated 'svc-work'/);
    assert.equal(Object.keys(JSON.parse(readFileSync(file, 'utf8'))[key]).sort(), ['other', 'svc-work']);

    await runUninstall({ client, place }, createFakeCli({ env: { SVC_PROFILE: 'work' } }).ctx);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(after[key], before(key)[key]);
    assert.is(after.theme, 'dark');
  });
}

test('install into a missing file makes it; --print writes nothing and shows the entry', async () => {
  const place = linux();
  const printed = createFakeCli();
  await runInstall({ client: 'cursor', place, node: NODE, bin: BIN, print: true }, printed.ctx);
  assert.not.ok(existsSync(configPathOf('cursor', place)));
  assert.equal(JSON.parse(printed.stdout()), {
    mcpServers: { svc: { command: NODE, args: [BIN, 'mcp', '--profile', 'default'] } },
  });
  await runInstall({ client: 'cursor', place, node: NODE, bin: BIN }, createFakeCli().ctx);
  assert.ok(JSON.parse(readFileSync(configPathOf('cursor', place), 'utf8')).mcpServers.svc);
});

test('each client’s file per OS', () => {
  const mac: Place = { platform: 'darwin', home: '/Users/ada', env: {} };
  const win: Place = {
    platform: 'win32',
    home: 'C:\\Users\\ada',
    env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' },
  };
  const lin: Place = { platform: 'linux', home: '/home/ada', env: { XDG_CONFIG_HOME: '/home/ada/.xdg' } };
  assert.is(
    configPathOf('claude-desktop', mac),
    '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
  );
  assert.match(configPathOf('claude-desktop', win), /AppData.Roaming.Claude.claude_desktop_config\.json$/);
  assert.is(configPathOf('claude-desktop', lin), '/home/ada/.xdg/Claude/claude_desktop_config.json');
  assert.is(configPathOf('claude-code', mac), '/Users/ada/.claude.json');
  assert.is(configPathOf('cursor', lin), '/home/ada/.cursor/mcp.json');
  assert.is(configPathOf('vscode', mac), '/Users/ada/Library/Application Support/Code/User/mcp.json');
  assert.match(configPathOf('vscode', win), /AppData.Roaming.Code.User.mcp\.json$/);
  assert.is(configPathOf('vscode', lin), '/home/ada/.xdg/Code/User/mcp.json');
});

test('a file with comments is refused and left alone; an unknown client is a usage error', async () => {
  const place = linux();
  const file = configPathOf('vscode', place);
  mkdirSync(dirname(file), { recursive: true });
  const text = '{\n  // mine\n  "servers": {}\n}\n';
  writeFileSync(file, text);
  const err = await runInstall({ client: 'vscode', place, node: NODE, bin: BIN }, createFakeCli().ctx).catch((e) => e);
  assert.instance(err, FailedError);
  assert.match(err.message, /is not plain JSON/);
  assert.is(readFileSync(file, 'utf8'), text);
  const bad = await runInstall({ client: 'emacs', place }, createFakeCli().ctx).catch((e) => e);
  assert.instance(bad, UsageError);
  assert.match(bad.message, /unknown client 'emacs': use one of claude-desktop, claude-code, cursor, vscode/);
});

test.run();
