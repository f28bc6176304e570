import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_MAIN } from '../../helpers/daemon-process.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * A daemon started the way users start one (`svc daemon start --foreground`) with a test setting
 * left in its environment, and no opt-in, refuses to start: one line names the setting and the
 * way out, and nothing is served or set up. (The test helpers that want a cheap daemon pass the
 * opt-in: tests/helpers/daemon-process.ts, testSettingsEnv.)
 */
function startForeground(data: string, env: Record<string, string>) {
  return new Promise<{ started: boolean; code: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [CLI_MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', data],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SVC_DATA_DIR: data, ...env },
      },
    );
    let started = false;
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.on('data', (c) => {
      // A daemon that serves is a failure of this test: stop it rather than wait for it.
      if (!started && String(c).includes('listening on')) {
        started = true;
        child.kill('SIGTERM');
      }
    });
    child.once('close', (code) => resolve({ started, code, stderr }));
  });
}

for (const setting of ['SVC_TEST_SCRYPT_N', 'SVC_TEST_CLOCK_FILE']) {
  test(`${setting} without SVC_ALLOW_TEST_SETTINGS=1: the daemon refuses to start`, async () => {
    const data = tempDir('svc-test-settings');
    const value = setting === 'SVC_TEST_SCRYPT_N' ? '1024' : join(data, 'offset');
    const res = await startForeground(data, { [setting]: value });
    assert.not.ok(res.started, 'the daemon served');
    assert.is.not(res.code, 0);
    const lines = res.stderr.trim().split('\n');
    assert.ok(
      lines.some((l) => l.includes(`${setting} is a test setting`) && l.includes('SVC_ALLOW_TEST_SETTINGS=1')),
      res.stderr,
    );
    assert.not.ok(existsSync(join(data, 'jwt-secret')), 'nothing was set up');
  });
}

test('with SVC_ALLOW_TEST_SETTINGS=1 it starts, and says loudly that it must not serve real users', async () => {
  const data = tempDir('svc-test-settings');
  const res = await startForeground(data, { SVC_TEST_SCRYPT_N: '1024', SVC_ALLOW_TEST_SETTINGS: '1' });
  assert.ok(res.started, res.stderr);
  assert.match(res.stderr, /TEST SETTINGS IN USE/);
});

test.run();
