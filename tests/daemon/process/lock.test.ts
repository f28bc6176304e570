import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acquireLock, DataDirLocked, readLock } from '../../../daemon/lock.js';
import { readLastUrl } from '../../../shared/lock-file.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

test('the lock file names this process and its URL, mode 0600, and is removed on release', () => {
  const dir = tempDir('svc-data');
  const lock = acquireLock(dir, '1.2.3');
  const file = join(dir, 'daemon.lock');
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readLock(dir)!.pid, process.pid);
  assert.is(readLock(dir)!.url, null);
  lock.update('http://127.0.0.1:1234');
  assert.equal(
    { ...readLock(dir)!, started_at: 'x' },
    { pid: process.pid, url: 'http://127.0.0.1:1234', started_at: 'x', version: '1.2.3' },
  );
  lock.release();
  assert.not.ok(existsSync(file));
  assert.is(
    readLastUrl(dir),
    'http://127.0.0.1:1234',
    'the last URL outlives the lock: the CLI names it once the daemon is down',
  );
});

test('a second daemon on the same folder is refused with a message naming the holder and what to do', () => {
  const dir = tempDir('svc-data');
  // Another live process holds the lock: our parent (alive for the whole test).
  writeFileSync(
    join(dir, 'daemon.lock'),
    JSON.stringify({ pid: process.ppid, url: 'http://127.0.0.1:7878', started_at: '', version: '0' }),
  );
  try {
    acquireLock(dir, '0');
    assert.unreachable('should have refused');
  } catch (err) {
    assert.instance(err, DataDirLocked);
    const message = (err as Error).message;
    assert.ok(message.includes(`pid ${process.ppid}`), message);
    assert.ok(message.includes('http://127.0.0.1:7878'), message);
    assert.ok(message.includes(dir), message);
    assert.ok(message.includes('svc daemon stop'), message);
  }
  assert.is(readLock(dir)!.pid, process.ppid, 'the live lock is left alone');
});

test('a stale lock of a dead process (kill -9, a crash) is taken over', () => {
  const dir = tempDir('svc-data');
  const dead = deadPid();
  writeFileSync(
    join(dir, 'daemon.lock'),
    JSON.stringify({ pid: dead, url: 'http://127.0.0.1:9', started_at: '', version: '0' }),
  );
  const lock = acquireLock(dir, '0');
  assert.is(readLock(dir)!.pid, process.pid);
  lock.release();
});

test('an unreadable (half-written) lock file is treated as stale', () => {
  const dir = tempDir('svc-data');
  writeFileSync(join(dir, 'daemon.lock'), '{"pid": 12');
  const lock = acquireLock(dir, '0');
  assert.is(readLock(dir)!.pid, process.pid);
  lock.release();
});

test('release does not delete a lock another process took over meanwhile', () => {
  const dir = tempDir('svc-data');
  const lock = acquireLock(dir, '0');
  writeFileSync(
    join(dir, 'daemon.lock'),
    JSON.stringify({ pid: process.ppid, url: null, started_at: '', version: '0' }),
  );
  lock.release();
  assert.ok(existsSync(join(dir, 'daemon.lock')));
  assert.is(JSON.parse(readFileSync(join(dir, 'daemon.lock'), 'utf8')).pid, process.ppid);
});

test.run();
