import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ensureDataDir, loadSecrets } from '../../../daemon/data-dir.js';
import { tempDir } from '../../helpers/temp-dir.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const SECRET_FILES = ['jwt-secret', 'operator-token', 'mail-key', 'code-key'];

test('the data folder is created 0700, even under a permissive umask', () => {
  const previous = process.umask(0o000);
  try {
    const dir = join(tempDir('svc-data'), 'nested', 'svc');
    ensureDataDir(dir);
    assert.is(mode(dir), 0o700);
  } finally {
    process.umask(previous);
  }
});

test('an existing data folder open to others is tightened to 0700', () => {
  const dir = join(tempDir('svc-data'), 'svc');
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  ensureDataDir(dir);
  assert.is(mode(dir), 0o700);
});

test('secrets are generated at first start into 0600 files and read back unchanged later', () => {
  const dir = tempDir('svc-data');
  ensureDataDir(dir);
  const first = loadSecrets(dir);
  for (const name of SECRET_FILES) assert.is(mode(join(dir, name)), 0o600, name);
  assert.is(first.jwtSecret.length, 32);
  assert.match(first.operatorToken, /^op_[A-Za-z0-9_-]{43}$/);
  const again = loadSecrets(dir);
  assert.ok(again.jwtSecret.equals(first.jwtSecret));
  assert.is(again.operatorToken, first.operatorToken);
  assert.is(readFileSync(join(dir, 'operator-token'), 'utf8').trim(), first.operatorToken);
});

test('two data folders get different secrets', () => {
  const a = loadSecrets(tempDir('svc-data'));
  const b = loadSecrets(tempDir('svc-data'));
  assert.is.not(a.operatorToken, b.operatorToken);
  assert.not.ok(a.jwtSecret.equals(b.jwtSecret));
});

test('a secret file left readable by others is tightened to 0600', () => {
  const dir = tempDir('svc-data');
  writeFileSync(join(dir, 'operator-token'), 'op_existing\n', { mode: 0o644 });
  chmodSync(join(dir, 'operator-token'), 0o644);
  assert.is(loadSecrets(dir).operatorToken, 'op_existing');
  assert.is(mode(join(dir, 'operator-token')), 0o600);
});

test('an empty secret file is a clear error, not an empty token', () => {
  const dir = tempDir('svc-data');
  writeFileSync(join(dir, 'operator-token'), '\n', { mode: 0o600 });
  assert.throws(() => loadSecrets(dir), /operator-token is empty/);
});

test.run();
