import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultConfig } from '../../../daemon/config.js';
import { silentLogger } from '../../../daemon/logger.js';
import { openFileStores } from '../../../daemon/store/index.js';
import { openDaemonStorage } from '../../../daemon/store/open.js';
import { openRuntimeStores } from '../../../daemon/store/runtime/open.js';
import { readDataFolder } from '../../../daemon/transfer/folder-source.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor } from '../../helpers/store-implementations.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Folders of the layouts this release no longer reads (development builds' one-document-per-room
 * files and their single-file journal) are refused with the file's name, by the daemon's stores,
 * a Company's runtime and the export alike, and left exactly as they were.
 */
const clock = new FakeClock(Date.parse('2026-11-28T12:00:00Z'));
const listing = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listing(join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name],
  );

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

for (const name of ['accounts.json', 'keys.json', 'accounts.jsonl']) {
  test(`a data folder holding ${name} is refused, named, and left untouched`, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, name), '{"users":[]}\n');
    const before = listing(dir);
    const message = await refusal(() => openFileStores(dir, storeDepsFor(clock)));
    assert.match(message, join(dir, name));
    assert.match(message, /layout this release does not read/);
    assert.equal(listing(dir), before);
    assert.match(await refusal(() => readDataFolder(dir).next()), join(dir, name));
    // The daemon's own opening refuses before it makes a secret: the folder holds only what it held.
    const config = defaultConfig({ dataDir: dir });
    const deps = { clock, ids: storeDepsFor(clock).ids, log: silentLogger };
    assert.match(await refusal(() => openDaemonStorage(config, deps)), join(dir, name));
    assert.equal(listing(dir), before);
  });
}

for (const name of ['runtime.json', 'questions.json', 'runtime.jsonl']) {
  test(`a Company folder holding ${name} is refused, named, and left untouched`, async () => {
    const dataDir = tempDir();
    const dir = join(dataDir, 'companies', 'cmp_1');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), '{}\n');
    const before = listing(dataDir);
    assert.match(await refusal(() => openRuntimeStores('file', dir, {})), join(dir, name));
    assert.equal(listing(dataDir), before);
    assert.match(await refusal(() => readDataFolder(dataDir).next()), join(dir, name));
  });
}

test('the backups an earlier upgrade left (*.pre-journal) are not in the way', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'accounts.json.pre-journal'), '{}\n');
  const stores = await openFileStores(dir, storeDepsFor(clock));
  await stores.close();
});

test.run();
