import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadedModules } from '../helpers/module-log.js';

const dist = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(dist, 'cli/main.js');
/** The files (not node: built-ins) a run loaded, relative to dist/ or to the checkout for node_modules. */
const files = (urls: string[]) =>
  urls
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u))
    .map((p) => (p.startsWith(dist) ? p.slice(dist.length) : p.replace(/^.*\/node_modules\//, 'node_modules/')));

// The bin is a bundle (scripts/build-cli.mjs): what start-up costs is the number of files Node
// loads, so these pin the graph; the time itself is measured by `npm run bench` (05-cli-start).
test('svc --version reads one file: the bin itself', () => {
  assert.equal(files(loadedModules('version', [bin, '--version'])), ['cli/main.js']);
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

test('svc completion bash, which loads every command, loads no zod or commander file either', () => {
  const loaded = files(loadedModules('completion', [bin, 'completion', 'bash']));
  assert.ok(loaded.filter((f) => f.startsWith('cli-chunks/')).length > 50, 'not every command chunk was loaded');
  assert.not.ok(
    loaded.some((f) => f.startsWith('node_modules/zod/') || f.startsWith('node_modules/commander/')),
    'zod or commander loaded from node_modules: they are bundled',
  );
});

test.run();
