import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveCacheDir, runCachedScript } from '../../shared/code-cache.js';
import { tempDir } from '../helpers/temp-dir.js';

interface Demo {
  answer(): number;
  url: string;
  load(specifier: string): Promise<unknown>;
}

/** A function-wrapped script (the shape scripts/ build for runCachedScript), in a fresh folder. */
function demoScript(): string {
  const file = join(tempDir('svc-cc-script'), 'demo.cjs');
  writeFileSync(
    file,
    '(function (exports, require, module, __svcImport, __svcMetaUrl) {"use strict";' +
      'const { join } = require("node:path");' +
      'module.exports = { answer: () => join("a", "b").length * 14, url: __svcMetaUrl, load: (s) => __svcImport(s) };\n})',
  );
  return file;
}
const run = (file: string, env: Record<string, string>) =>
  runCachedScript<Demo>({
    file,
    env,
    build: 'b1',
    name: 'demo run',
    require: createRequire(import.meta.url),
    importModule: (s) => import(s),
  });
/** The one build folder (its name ends with a CRC of node's flags) and the cache file in it. */
const buildDir = (dir: string) => {
  const found = readdirSync(join(dir, 'code-cache')).filter((d) => d.startsWith(`b1-${process.versions.v8}-`));
  assert.is(found.length, 1);
  return join(dir, 'code-cache', found[0]!);
};
const cacheFileOf = (dir: string) => join(buildDir(dir), 'demo-run.bin');
const isWhole = (f: Buffer) =>
  f.length > 8 && f.readUInt32LE(0) === f.length - 8 && f.readUInt32LE(4) === crc32(f.subarray(8));

test('the script runs with its exports, require, import() hook and file URL; the cache is written once', async () => {
  const file = demoScript();
  const env = { SVC_CACHE_DIR: tempDir('svc-cc') };
  const first = run(file, env);
  assert.is(first.exports.answer(), 42);
  assert.is(first.exports.url, pathToFileURL(file).href);
  assert.ok(((await first.exports.load('node:path')) as { join: unknown }).join);
  first.saveCache();
  const written = readFileSync(cacheFileOf(env.SVC_CACHE_DIR));
  assert.ok(isWhole(written));
  assert.is(statSync(cacheFileOf(env.SVC_CACHE_DIR)).mode & 0o777, 0o600);
  const second = run(file, env);
  assert.is(second.exports.answer(), 42);
  second.saveCache();
  assert.ok(readFileSync(cacheFileOf(env.SVC_CACHE_DIR)).equals(written), 'a good cache was rewritten');
});

test('a damaged, cut or foreign cache file is never used: the script runs and a whole file replaces it', () => {
  const file = demoScript();
  const env = { SVC_CACHE_DIR: tempDir('svc-cc') };
  run(file, env).saveCache();
  const good = readFileSync(cacheFileOf(env.SVC_CACHE_DIR));
  const flipped = Buffer.from(good);
  flipped[flipped.length - 20]! ^= 0xff;
  for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from('not a cache')]) {
    writeFileSync(cacheFileOf(env.SVC_CACHE_DIR), bad);
    const again = run(file, env);
    assert.is(again.exports.answer(), 42);
    again.saveCache();
    assert.ok(isWhole(readFileSync(cacheFileOf(env.SVC_CACHE_DIR))));
  }
  // Others could have written this one: it is not run, and the user's own replaces it.
  chmodSync(cacheFileOf(env.SVC_CACHE_DIR), 0o666);
  const shared = run(file, env);
  shared.saveCache();
  assert.is(statSync(cacheFileOf(env.SVC_CACHE_DIR)).mode & 0o777, 0o600);
});

test('an unwritable cache folder and SVC_CODE_CACHE=off cost a compile, nothing else', () => {
  const file = demoScript();
  const notAFolder = join(tempDir('svc-cc'), 'file');
  writeFileSync(notAFolder, 'x');
  const blocked = run(file, { SVC_CACHE_DIR: notAFolder });
  assert.is(blocked.exports.answer(), 42);
  blocked.saveCache();
  const off = { SVC_CACHE_DIR: tempDir('svc-cc'), SVC_CODE_CACHE: 'off' };
  run(file, off).saveCache();
  assert.equal(readdirSync(off.SVC_CACHE_DIR), []);
});

test("other builds' folders are removed once unused for a month, not before", () => {
  const file = demoScript();
  const env = { SVC_CACHE_DIR: tempDir('svc-cc') };
  const root = join(env.SVC_CACHE_DIR, 'code-cache');
  for (const name of ['old-build', 'recent-build']) mkdirSync(join(root, name), { recursive: true });
  const longAgo = new Date(Date.now() - 40 * 24 * 3600 * 1000);
  utimesSync(join(root, 'old-build'), longAgo, longAgo);
  run(file, env).saveCache();
  const left = readdirSync(root).sort();
  assert.equal(left.length, 2);
  assert.ok(left[0]!.startsWith(`b1-${process.versions.v8}-${process.arch}-`), left[0]);
  assert.is(left[1], 'recent-build');
});

test('the cache folder: SVC_CACHE_DIR, else $XDG_CACHE_HOME/svc, else ~/.cache/svc', () => {
  assert.is(resolveCacheDir({ SVC_CACHE_DIR: '/a', XDG_CACHE_HOME: '/b', HOME: '/c' }), '/a');
  assert.is(resolveCacheDir({ XDG_CACHE_HOME: '/b', HOME: '/c' }), '/b/svc');
  assert.is(resolveCacheDir({ HOME: '/c' }), '/c/.cache/svc');
});

test.run();
