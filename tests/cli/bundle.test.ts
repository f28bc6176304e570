import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadedModules } from '../helpers/module-log.js';

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

test('svc keys list --json loads the bundle’s chunks only: no zod or commander files, no other package', () => {
  const loaded = files(loadedModules('keys', [bin, 'keys', 'list', '--json']));
  assert.ok(
    loaded.some((f) => /^cli-chunks\/list-\w+\.js$/.test(f)),
    `the keys list chunk was not loaded: ${loaded.join(' ')}`,
  );
  const outside = loaded.filter((f) => f !== 'cli/main.js' && !f.startsWith('cli-chunks/'));
  assert.equal(outside, [], `loaded outside the bundle: ${outside.join(' ')}`);
  assert.ok(loaded.length <= 30, `${loaded.length} files loaded`);
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

test.run();
