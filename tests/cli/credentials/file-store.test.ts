import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFileStore } from '../../../cli/credentials/file-store.js';
import { tempDir } from '../../helpers/temp-dir.js';

const mode = (path: string) => statSync(path).mode & 0o777;

test('set/get/delete round trip, by account name', async () => {
  const store = createFileStore(join(tempDir('svc-cred'), 'credentials.json'));
  assert.is(store.kind(), 'file');
  assert.is(await store.get('token:http://a'), null);
  await store.set('token:http://a', 'jwt-a');
  await store.set('token:http://b', 'jwt-b');
  assert.is(await store.get('token:http://a'), 'jwt-a');
  assert.is(await store.get('token:http://b'), 'jwt-b');
  assert.is(await store.delete('token:http://a'), true);
  assert.is(await store.delete('token:http://a'), false);
  assert.is(await store.get('token:http://a'), null);
  assert.is(await store.get('token:http://b'), 'jwt-b');
});

test('the file is mode 0600 and its new folder 0700, even under a permissive umask', async () => {
  const previous = process.umask(0o000);
  try {
    const dir = join(tempDir('svc-cred'), 'config');
    const file = join(dir, 'credentials.json');
    await createFileStore(file).set('k', 'secret');
    assert.is(mode(file), 0o600);
    assert.is(mode(dir), 0o700);
  } finally {
    process.umask(previous);
  }
});

test('an existing world-readable file is replaced by a 0600 one on the next write', async () => {
  const dir = tempDir('svc-cred');
  const file = join(dir, 'credentials.json');
  writeFileSync(file, JSON.stringify({ old: 'value' }), { mode: 0o644 });
  await createFileStore(file).set('k', 'secret');
  assert.is(mode(file), 0o600);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')), { old: 'value', k: 'secret' });
});

test('writes are atomic: a temp file renamed over the old one, nothing left beside it', async () => {
  const dir = tempDir('svc-cred');
  const file = join(dir, 'credentials.json');
  const store = createFileStore(file);
  await store.set('a', '1');
  const inodeBefore = statSync(file).ino;
  await store.set('b', '2');
  // A rename gives the file a new inode; an in-place rewrite would keep the old one (and could be seen half-written).
  assert.is.not(statSync(file).ino, inodeBefore);
  assert.equal(readdirSync(dir), ['credentials.json']);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')), { a: '1', b: '2' });
});

test('a corrupt file is a clear error naming it, not an empty store that would be overwritten', async () => {
  const dir = tempDir('svc-cred');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'credentials.json');
  writeFileSync(file, '{not json', { mode: 0o600 });
  const store = createFileStore(file);
  try {
    await store.get('a');
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.match((err as Error).message, file);
  }
  await store.set('a', '1').then(
    () => assert.unreachable('should not overwrite'),
    () => {},
  );
  assert.is(readFileSync(file, 'utf8'), '{not json');
});

test.run();
