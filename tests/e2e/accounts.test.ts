import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, startDaemonProcess } from '../helpers/daemon-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The built `svc` against a real daemon process: signup → verify (code from the operator mail
 * route) → whoami → logout, through argv, stdin, the file credential store and exit codes.
 */
// HOME is the config folder, so nothing of the developer's own setup leaks in.
const svc = (args: string[], env: Record<string, string>, stdin = '') =>
  runCli(args, { HOME: env.SVC_CONFIG_DIR!, ...env }, stdin);

test('svc signup → verify --from-mail → whoami → logout against a real daemon', async () => {
  const dataDir = tempDir('svc-e2e-data');
  const daemon = await startDaemonProcess(dataDir);
  const { url, invite } = daemon;
  try {
    const env = { SVC_URL: url, SVC_CONFIG_DIR: tempDir('svc-e2e-config'), SVC_KEYCHAIN: 'off', SVC_DATA_DIR: dataDir };
    const signup = await svc(
      ['signup', '--email', 'e2e@example.com', '--invite', invite, '--password-stdin'],
      env,
      'an end to end password\n',
    );
    assert.is(signup.code, 0, signup.stderr);
    assert.match(signup.stdout, 'Signed up as e2e@example.com');

    const verify = await svc(['verify', '--from-mail', '--data', dataDir], env);
    assert.is(verify.code, 0, verify.stderr);
    assert.match(verify.stdout, 'Verified e2e@example.com');

    const whoami = await svc(['whoami', '--json'], env);
    assert.is(whoami.code, 0, whoami.stderr);
    const me = JSON.parse(whoami.stdout);
    assert.equal([me.email, me.email_verified, me.tier], ['e2e@example.com', true, 'trial']);

    const logout = await svc(['logout'], env);
    assert.is(logout.code, 0, logout.stderr);
    const after = await svc(['whoami'], env);
    assert.is(after.code, 4);
    assert.match(after.stderr, 'not logged in');

    const badLogin = await svc(
      ['login', '--email', 'e2e@example.com', '--password-stdin'],
      env,
      'the wrong password here\n',
    );
    assert.is(badLogin.code, 4);
    assert.match(badLogin.stderr, 'The e-mail or password is incorrect.');
  } finally {
    await daemon.stop();
  }
});

test.run();
