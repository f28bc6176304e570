import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crc32 } from 'node:zlib';
import { tempDir } from '../helpers/temp-dir.js';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** `svc <argv>` in a real process, with its own cache and config folders (profile add/list run in the fast bundle). */
function svc(cacheDir: string, config: string, ...argv: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...argv], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir('svc-home'), SVC_CONFIG_DIR: config, SVC_CACHE_DIR: cacheDir },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
/** The file's own header (cli/fast-bundle.ts): payload length and CRC-32. */
const isWhole = (file: Buffer) =>
  file.length > 8 && file.readUInt32LE(0) === file.length - 8 && file.readUInt32LE(4) === crc32(file.subarray(8));
const cacheFile = (dir: string) => {
  const root = join(dir, 'code-cache');
  const [build] = readdirSync(root);
  return join(root, build!, 'profile-list.bin');
};

test('the code cache is written on the first run and used as it is on the next', () => {
  const cache = tempDir('svc-cc');
  const config = tempDir('svc-cc-config');
  assert.is(svc(cache, config, 'profile', 'add', 'work', '--url', 'http://127.0.0.1:9').code, 0);
  const first = svc(cache, config, 'profile', 'list', '--json');
  assert.is(first.code, 0, first.err);
  const written = readFileSync(cacheFile(cache));
  assert.ok(written.length > 1000 && isWhole(written));
  assert.equal(svc(cache, config, 'profile', 'list', '--json'), first);
  assert.ok(readFileSync(cacheFile(cache)).equals(written), 'a good cache is not rewritten');
});

test('a damaged or cut cache file is ignored and replaced; the command runs the same', () => {
  const cache = tempDir('svc-cc');
  const config = tempDir('svc-cc-config');
  const expected = svc(cache, config, 'profile', 'list', '--json');
  const good = readFileSync(cacheFile(cache));
  const flipped = Buffer.from(good);
  flipped[flipped.length - 100]! ^= 0xff;
  for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from('not a cache')]) {
    writeFileSync(cacheFile(cache), bad);
    assert.equal(svc(cache, config, 'profile', 'list', '--json'), expected);
    assert.ok(isWhole(readFileSync(cacheFile(cache))), 'the damaged file was not replaced by a whole one');
  }
});

test("a cache file others can write is never run: it is ignored and replaced by the user's own", () => {
  const cache = tempDir('svc-cc');
  const config = tempDir('svc-cc-config');
  const expected = svc(cache, config, 'profile', 'list', '--json');
  chmodSync(cacheFile(cache), 0o666);
  assert.equal(svc(cache, config, 'profile', 'list', '--json'), expected);
  assert.is(statSync(cacheFile(cache)).mode & 0o777, 0o600);
});

test('a cache folder that cannot be written costs nothing but the compile', () => {
  const config = tempDir('svc-cc-config');
  const expected = svc(tempDir('svc-cc'), config, 'profile', 'list', '--json');
  const notAFolder = join(tempDir('svc-cc'), 'file');
  writeFileSync(notAFolder, 'x');
  assert.equal(svc(notAFolder, config, 'profile', 'list', '--json'), expected);
  assert.equal(
    svc(tempDir('svc-cc'), config, 'profile', 'list', '--json', '--bogus').code,
    2,
    'usage errors still exit 2',
  );
});

test.run();
