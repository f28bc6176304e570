import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processIsAlive, readLock } from '../../daemon/lock.js';
import { tempDir } from '../helpers/temp-dir.js';
import { readAccountRows } from '../helpers/account-rows.js';
import { inviteSpec } from '../../daemon/store/accounts/tables.js';

/** The built CLI, as a user runs it: separate processes, a real port, a real data folder. */
const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
const env = {
  ...process.env,
  SVC_CONFIG_DIR: tempDir('svc-config'),
  SVC_KEYCHAIN: 'off',
  SVC_URL: undefined,
  SVC_DATA_DIR: undefined,
};

function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Whatever happened in a test, no daemon outlives it: stop the folder's daemon, and kill it if it will not stop. */
async function cleanUp(data: string): Promise<void> {
  await svc(['daemon', 'stop', '--data', data]);
  const lock = readLock(data);
  if (lock && processIsAlive(lock.pid)) {
    process.kill(lock.pid, 'SIGKILL');
    await gone(lock.pid);
  }
}

/** Waits for a process to be gone (after kill -9, stop). */
async function gone(pid: number): Promise<void> {
  while (processIsAlive(pid)) await new Promise((r) => setTimeout(r, 20));
}

test('daemon start / status / a second start refused / stop, from separate processes', async () => {
  const data = tempDir('svc-data');
  let lock = readLock(data);
  try {
    const start = await svc(['daemon', 'start', '--port', '0', '--data', data]);
    assert.is(start.code, 0, start.stderr);
    assert.match(start.stdout, /svc daemon started \(pid \d+\)/);
    assert.match(start.stdout, /listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(start.stdout, /invite code: [0-9A-Z]{4}(-[0-9A-Z]{4}){3}/);
    assert.match(start.stdout, /--invite [0-9A-Z]{4}(-[0-9A-Z]{4}){3}/);
    // The invite is shown to whoever started the daemon, never written to its log (others may read it).
    const invite = /invite code: (\S+)/.exec(start.stdout)![1]!;
    const logText = readFileSync(join(data, 'daemon.log'), 'utf8');
    assert.ok(logText.includes('listening on'), logText);
    assert.not.ok(logText.includes(invite), 'the invite code is not in daemon.log');
    lock = readLock(data)!;
    const status = await svc(['--json', 'daemon', 'status', '--data', data]);
    assert.is(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout);
    assert.equal([s.running, s.healthy, s.pid, s.url], [true, true, lock.pid, lock.url]);
    const health = await fetch(`${lock.url}/healthz`);
    assert.equal(await health.json(), { ok: true });

    const second = await svc(['daemon', 'start', '--port', '0', '--data', data]);
    assert.is(second.code, 1);
    assert.ok(second.stderr.includes(`another svc daemon (pid ${lock.pid}`), second.stderr);
    const foreground = await svc(['daemon', 'start', '--foreground', '--port', '0', '--data', data]);
    assert.is(foreground.code, 1, 'the lock refuses a foreground start too');
    assert.ok(foreground.stderr.includes('is using the data folder'), foreground.stderr);
    const stop = await svc(['daemon', 'stop', '--data', data]);
    assert.is(stop.code, 0, stop.stderr);
    assert.is(stop.stdout.trim(), `stopped svc daemon (pid ${lock.pid})`);
  } finally {
    await cleanUp(data);
  }
  assert.not.ok(processIsAlive(lock!.pid));
  assert.is(readLock(data), null, 'a clean stop removes the lock');
  const after = await svc(['daemon', 'status', '--data', data]);
  assert.is(after.code, 1);
});

test('the foreground banner, then kill -9 and a new start recovers the stale lock and an intact journal', async () => {
  const data = tempDir('svc-data');
  try {
    await crashAndRecover(data);
  } finally {
    await cleanUp(data);
  }
});

async function crashAndRecover(data: string): Promise<void> {
  const child = spawn(process.execPath, [CLI, 'daemon', 'start', '--foreground', '--port', '0', '--data', data], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
    reader.on('line', (line) => {
      lines.push(line);
      if (lines.length === 4) resolve();
    });
  });
  const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!)?.[1];
  assert.ok(url, lines[0]);
  assert.is(lines[1], `data folder: ${data}`);
  assert.match(lines[2]!, /^invite code: [0-9A-Z]{4}(-[0-9A-Z]{4}){3}/);
  assert.match(lines[3]!, /^next: in another terminal, run {2}node \S+\/cli\/svc\.cjs (signup|profile add)/);
  assert.not.match(lines.join('\n'), /npx/);

  const token = readFileSync(join(data, 'operator-token'), 'utf8').trim();
  const invite = await fetch(`${url}/api/dev/invites`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  assert.is(invite.status, 201);
  const invitesBefore = (await readAccountRows(data, inviteSpec)).length;
  assert.is(invitesBefore, 2, 'the banner invite and this one, on disk before the answer');

  child.kill('SIGKILL');
  await gone(child.pid!);
  assert.is(readLock(data)!.pid, child.pid, 'kill -9 leaves the lock behind');

  const start = await svc(['daemon', 'start', '--port', '0', '--data', data]);
  assert.is(start.code, 0, start.stderr);
  const lock = readLock(data)!;
  assert.is.not(lock.pid, child.pid);
  assert.is((await readAccountRows(data, inviteSpec)).length, 3, 'the old invites survived, plus the new banner one');
  const mail = await fetch(`${lock.url}/api/dev/mail`, { headers: { authorization: `Bearer ${token}` } });
  assert.is(mail.status, 200, 'the operator token survived the crash');
}

test.run();
