import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, startDaemonProcess } from '../helpers/daemon-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const SEED = fileURLToPath(new URL('../../../examples/seed.json', import.meta.url));
const svc = (args: string[], env: Record<string, string>, stdin = '') =>
  runCli(args, { HOME: env.SVC_CONFIG_DIR!, ...env }, stdin);

/**
 * The README's "seed and go", with the built CLI against a real daemon: seed the example file, log
 * in as its user without mail, move the clock, seed again (nothing made), then --reset, which
 * restarts the daemon on an empty folder with the clock back at real time.
 */
test('svc dev seed examples/seed.json → svc login → svc dev clock → --reset', async () => {
  const dataDir = tempDir('svc-e2e-dev');
  const daemon = await startDaemonProcess(dataDir);
  const env = { SVC_DATA_DIR: dataDir, SVC_CONFIG_DIR: tempDir('svc-e2e-config'), SVC_KEYCHAIN: 'off' };
  try {
    const seed = await svc(['dev', 'seed', SEED], env);
    assert.is(seed.code, 0, seed.stderr);
    assert.match(seed.stdout, /created {2}users\.ada/);
    assert.match(seed.stdout, /SVC_SECRET_KEY=sk_/);

    const login = await svc(
      ['login', '--email', 'ada@example.com', '--password-stdin'],
      env,
      'correct horse battery staple\n',
    );
    assert.is(login.code, 0, login.stderr);
    const who = await svc(['whoami', '--json'], env);
    assert.equal([JSON.parse(who.stdout).email, JSON.parse(who.stdout).tier], ['ada@example.com', 'company']);

    const again = await svc(['dev', 'seed', SEED], env);
    assert.is(again.code, 0, again.stderr);
    assert.match(again.stderr, /nothing to do/);

    const moved = await svc(['dev', 'clock', 'advance', '2h'], env);
    assert.is(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /\+2h ahead of real time/);
    const status = await svc(['daemon', 'status'], env);
    assert.match(status.stdout, /clock: \+2h ahead of real time/);
    const back = await svc(['dev', 'clock', 'set', '2020-01-01T00:00:00Z'], env);
    assert.is(back.code, 2, back.stderr);
    assert.match(back.stderr, /only moves forward/);

    const noYes = await svc(['dev', 'seed', SEED, '--reset'], env);
    assert.is(noYes.code, 2);
    const reset = await svc(['dev', 'seed', SEED, '--reset', '--yes'], env);
    assert.is(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /created {2}users\.ada/);
    const after = await svc(['dev', 'clock', 'status'], env);
    assert.match(after.stdout, /\(real time\)/);
  } finally {
    await svc(['daemon', 'stop'], env);
    await daemon.stop();
  }
});

test.run();
