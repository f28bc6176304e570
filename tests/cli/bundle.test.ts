import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadedModules } from '../helpers/module-log.js';
import { tempDir } from '../helpers/temp-dir.js';

const dist = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(dist, 'cli/main.js');
/** The files (not node: built-ins) a run loaded, relative to dist/ or to the checkout for node_modules. */
const files = (urls: string[]) =>
  [...new Set(urls)]
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u))
    .map((p) => (p.startsWith(dist) ? p.slice(dist.length) : p.replace(/^.*\/node_modules\//, 'node_modules/')));

// The bin is a bundle (scripts/build-cli.mjs): what start-up costs is the number of files Node
// loads, so these pin the graph; the time itself is measured by `npm run bench` (05-cli-start).
test("svc --version reads the bin and esbuild's helper chunk, nothing else", () => {
  const loaded = files(loadedModules('version', [bin, '--version']));
  assert.is(loaded[0], 'cli/main.js');
  // esbuild makes every entry import its runtime helpers (a 2 KB chunk), used or not.
  assert.ok(
    loaded.length <= 2 && loaded.slice(1).every((f) => /^cli-chunks\/chunk-\w+\.js$/.test(f)),
    loaded.join(' '),
  );
});

test('svc keys list --json runs in the fast bundle: through the ESM loader only main.js and two chunks, no package', () => {
  const cache = tempDir('svc-code-cache');
  const loaded = files(loadedModules('keys', [bin, 'keys', 'list', '--json'], { SVC_CACHE_DIR: cache }));
  assert.is(loaded[0], 'cli/main.js');
  // The helper chunk and the fast bundle's loader (cli/fast-bundle.ts); dist/cli/fast.cjs is a script, not a module.
  assert.ok(
    loaded.length <= 3 && loaded.slice(1).every((f) => /^cli-chunks\/(chunk|fast-bundle)-\w+\.js$/.test(f)),
    loaded.join(' '),
  );
  assert.ok(
    readdirSync(join(cache, 'code-cache')).length === 1,
    'no code cache was written: the fast bundle did not run',
  );
});

test('svc events list --json, which the fast bundle cannot run (its live view needs Ink), takes the ESM path without commander', () => {
  const loaded = files(
    loadedModules('events', [bin, 'events', 'list', '--json'], { SVC_CACHE_DIR: tempDir('svc-cc') }),
  );
  assert.ok(
    loaded.some((f) => /^cli-chunks\/list-\w+\.js$/.test(f)),
    loaded.join(' '),
  );
  assert.not.ok(
    loaded.some((f) => /^cli-chunks\/(command-tree|fast-bundle)-\w+\.js$/.test(f)),
    `commander or the fast bundle was loaded: ${loaded.join(' ')}`,
  );
});

test('svc completion bash, which loads every command, takes commander from the bundle too', () => {
  const loaded = files(loadedModules('completion', [bin, 'completion', 'bash']));
  assert.ok(loaded.filter((f) => f.startsWith('cli-chunks/')).length > 50, 'not every command chunk was loaded');
  // (zod itself may come from node_modules here: the MCP SDK, an external package, imports it.)
  assert.not.ok(
    loaded.some((f) => f.startsWith('node_modules/commander/')),
    'commander loaded from node_modules: it is bundled',
  );
});

const svcBin = join(dist, 'cli/svc.cjs');

test('the svc bin is the CommonJS launcher: --version and keys list load no ES module at all', () => {
  const pkg = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8'));
  assert.is(pkg.bin.svc, 'dist/cli/svc.cjs');
  assert.ok(statSync(svcBin).mode & 0o100, 'the bin is executable');
  assert.is(readFileSync(svcBin, 'utf8').split('\n')[0], '#!/usr/bin/env node');
  // (The hook sees the entry itself resolved; nothing else is.)
  assert.equal(files(loadedModules('bin-version', [svcBin, '--version'])), ['cli/svc.cjs']);
  const cache = tempDir('svc-cc');
  assert.equal(files(loadedModules('bin-keys', [svcBin, 'keys', 'list', '--json'], { SVC_CACHE_DIR: cache })), [
    'cli/svc.cjs',
  ]);
  assert.is(readdirSync(join(cache, 'code-cache')).length, 1, 'the fast bundle did not run');
});

test('the svc bin and main.js answer every kind of line alike (fast bundle, ESM path, commander)', () => {
  const env = { ...process.env, SVC_URL: 'http://127.0.0.1:9', SVC_KEYCHAIN: 'off', SVC_CACHE_DIR: tempDir('svc-cc') };
  const lines = [
    ['--version'],
    ['--help'],
    ['keys', '--help'],
    ['keys', 'list', '--json'],
    ['keys', 'list', '--bogus'],
    ['events', 'list', '--json'],
    ['profile', 'list', '--json'],
    ['help', 'profile'],
    ['completion', 'bash'],
    ['completion', 'zsh'],
    ['completion', 'fish'],
    ['completion', 'tcsh'],
  ];
  for (const line of lines) {
    const config = { ...env, SVC_CONFIG_DIR: tempDir('svc-bin-config') };
    const viaBin = spawnSync(process.execPath, [svcBin, ...line], { env: config, encoding: 'utf8' });
    const viaMain = spawnSync(process.execPath, [bin, ...line], { env: config, encoding: 'utf8' });
    assert.equal(
      [viaBin.status, viaBin.stdout, viaBin.stderr],
      [viaMain.status, viaMain.stdout, viaMain.stderr],
      line.join(' '),
    );
  }
});

test('svc completion <shell> through the bin prints the script the build made from the tree, loading no command', () => {
  for (const shell of ['bash', 'zsh', 'fish'])
    assert.ok(readFileSync(join(dist, `cli/completions/${shell}`), 'utf8').includes('svc'), shell);
  assert.equal(files(loadedModules('bin-completion', [svcBin, 'completion', 'bash'])), ['cli/svc.cjs']);
});

test.run();
