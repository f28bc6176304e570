import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Command } from '../../cli/command-spec.js';
import { ENTRIES } from '../../cli/commands/index.js';
import { main } from '../../cli/main.js';
import { createUser } from '../helpers/accounts.js';
import { captureIo } from '../helpers/cli.js';
import { createTestApp, serveTestApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/temp-dir.js';

test("every verb is filed under its command's own name (the fast path finds it by that name)", async () => {
  const makeCtx = () => {
    throw new Error('not run');
  };
  for (const e of ENTRIES)
    for (const [verb, load] of Object.entries(e.verbs ?? {})) {
      const cmd = await load(makeCtx);
      assert.ok(cmd instanceof Command);
      assert.is(cmd.commandName, verb, `${e.name} ${verb}`);
    }
});

test('the fast path and commander give the same output and exit code, line by line, against a daemon', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t, { tier: 'company' });
    const config = tempDir('svc-fast-config');
    const env = { SVC_URL: server.url, SVC_TOKEN: u.token, SVC_CONFIG_DIR: config, SVC_KEYCHAIN: 'off' };
    const run = async (argv: string[], path: 'fast' | 'commander', cache: string) => {
      const { io, out, err } = captureIo();
      const code = await main(argv, { io, env: { ...env, SVC_CACHE_DIR: cache }, path });
      return { code, out: out(), err: err() };
    };
    assert.is((await run(['companies', 'create', 'Fast Co'], 'commander', tempDir('svc-cc'))).code, 0);
    const lines = [
      ['keys', 'list', '--json'],
      ['--json', 'keys', 'list'],
      ['keys', 'list'],
      ['keys', 'list', '--json', 'kind,prefix'],
      ['companies', 'list', '--json'],
      ['whoami'],
      ['keys', 'create', '--name', 'k1', '--json', 'name'],
      ['keys', 'list', 'extra'],
      ['keys', 'list', '--bogus'],
      ['keys', 'bogus'],
      ['keys', 'list', '--help'],
      ['keys', 'revoke'],
      ['keys', 'revoke', 'sk_missing'],
      ['companies', 'use', 'Nope'],
    ];
    for (const line of lines) {
      const slow = await run(line, 'commander', tempDir('svc-cc'));
      const cache = tempDir('svc-cc');
      const fast = await run(line, 'fast', cache);
      // Each line is run twice: a second key would be a second row, so compare shapes where a line writes.
      if (line[1] === 'create') assert.equal(Object.keys(JSON.parse(fast.out)), Object.keys(JSON.parse(slow.out)));
      else assert.equal(fast, slow, line.join(' '));
    }
    // The plain lines really took the fast bundle: its run leaves a code cache behind.
    const cache = tempDir('svc-cc');
    await run(['keys', 'list', '--json'], 'fast', cache);
    assert.is(readdirSync(join(cache, 'code-cache')).length, 1);
  } finally {
    await server.close();
  }
});

test.run();
