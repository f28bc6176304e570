import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runWithCodeCache } from '../../../daemon/code-cache.js';
import { tempDir } from '../../helpers/temp-dir.js';

// A CommonJS-shaped file as the daemon's bundle is (scripts/build-daemon.mjs): exports, require,
// __filename, and the loader's import() in place of its own.
const SOURCE = `
const { basename } = require('node:path');
let calls = 0;
exports.count = () => ++calls;
exports.name = basename(__filename);
exports.load = () => __svcImport('node:os');
`;

interface Bundle {
  count(): number;
  name: string;
  load(): Promise<{ EOL: string }>;
}

function bundleIn(dir: string): { file: string; cache: string } {
  const file = join(dir, 'bundle-abc.cjs');
  writeFileSync(file, SOURCE);
  return { file, cache: join(dir, 'bundle-abc.v8-cache') };
}

test('the first run compiles and writes the cache; the next run takes it and runs the same code', async () => {
  const { file, cache } = bundleIn(tempDir('svc-cc'));
  const first = runWithCodeCache<Bundle>(file, cache, (s) => import(s));
  assert.is(first.cacheUsed, false);
  assert.is(first.exports.count(), 1);
  assert.is(first.exports.name, 'bundle-abc.cjs');
  assert.is(first.saveCache(), true);
  assert.ok(existsSync(cache));

  const second = runWithCodeCache<Bundle>(file, cache, (s) => import(s));
  assert.is(second.cacheUsed, true);
  // A fresh module: its own state, not the first run's.
  assert.is(second.exports.count(), 1);
  assert.is((await second.exports.load()).EOL, '\n');
  // Taken, so nothing to write.
  assert.is(second.saveCache(), false);
});

test('a cache V8 refuses (damaged, or made by another V8) is ignored, and replaced by the next save', () => {
  const { file, cache } = bundleIn(tempDir('svc-cc'));
  writeFileSync(cache, Buffer.alloc(4096, 7));
  const run = runWithCodeCache<Bundle>(file, cache, (s) => import(s));
  assert.is(run.cacheUsed, false);
  assert.is(run.exports.count(), 1);
  assert.is(run.saveCache(), true);
  assert.is(runWithCodeCache<Bundle>(file, cache, (s) => import(s)).cacheUsed, true);
});

// (As a read-only install is: a global npm prefix owned by root. Tests may run as root, who writes anywhere.)
test('a cache it cannot write: the code runs, saveCache says false, nothing throws or is left behind', () => {
  const dir = tempDir('svc-cc');
  const { file } = bundleIn(dir);
  mkdirSync(join(dir, 'cache-is-a-folder.v8-cache'));
  const run = runWithCodeCache<Bundle>(file, join(dir, 'cache-is-a-folder.v8-cache'), (s) => import(s));
  assert.is(run.exports.count(), 1);
  assert.is(run.saveCache(), false);
  assert.equal(readdirSync(dir).sort(), ['bundle-abc.cjs', 'cache-is-a-folder.v8-cache']);
});

test.run();
