import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI_MAIN, runCli, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.js';
import { runOnPty } from '../helpers/real-pty.js';
import { tempDir } from '../helpers/temp-dir.js';

/** The prompts of signup and login, on a real pseudo-terminal against a real daemon. */
const data = tempDir('svc-data');
const env = { SVC_CONFIG_DIR: tempDir('svc-config'), SVC_KEYCHAIN: 'off', SVC_DATA_DIR: data };
const PASSWORD = 'correct horse battery staple';
let daemon: DaemonProcess;

test.before(async () => {
  daemon = await startDaemonProcess(data);
});
test.after(async () => {
  await daemon.stop();
});

test('signup: the password rules are checked before the confirmation; arrow keys never end up in the password', async () => {
  const pty = runOnPty(['node', CLI_MAIN, 'signup', '--email', 'pty@example.test', '--invite', daemon.invite], env);
  await pty.expect(/Password/);
  pty.send('short\r');
  await pty.expect(/at least 12 characters/);
  assert.not.match((await Promise.race([pty.exit(), Promise.resolve(null)]))?.text ?? '', /Password again/);
  // Erase the kept entry; type the password with arrow keys in the middle (left, right).
  pty.send('\x7f'.repeat(5) + 'correct horse \x1b[D\x1b[Cbattery staple\r');
  await pty.expect(/Password again/);
  pty.send('correct horse battery stapl\r');
  await pty.expect(/differ; type them again\.\s+\? Password/);
  pty.send(PASSWORD + '\r');
  await pty.expect(/\? Password again/);
  pty.send(PASSWORD + '\r');
  const done = await pty.exit();
  assert.is(done.code, 0, done.text);
  assert.match(done.text, /Signed up as pty@example\.test/);
});

test('login: a wrong password is asked again, and the right one logs in; no "run svc login" hint inside svc login', async () => {
  const pty = runOnPty(['node', CLI_MAIN, 'login', '--email', 'pty@example.test'], env);
  await pty.expect(/Password/);
  pty.send('not the right password\r');
  await pty.expect(/try again \(2 tries left\)\.\s+\? Password/);
  pty.send(PASSWORD + '\r');
  const done = await pty.exit();
  assert.is(done.code, 0, done.text);
  assert.match(done.text, /Logged in as pty@example\.test/);
  // The password typed with arrow keys at signup is the plain one: the login above proves it.

  const three = runOnPty(['node', CLI_MAIN, 'login', '--email', 'pty@example.test'], env);
  for (const after of [/\? Password/, /2 tries left\)\.\s+\? Password/, /1 try left\)\.\s+\? Password/]) {
    await three.expect(after);
    three.send('wrong password again\r');
  }
  const refused = await three.exit();
  assert.is(refused.code, 4, refused.text);
  assert.not.match(refused.text, /run 'svc login'/);
  assert.match(refused.text, /svc password forgot/);
});

test('without a terminal the same commands say which flag to use instead of prompting', async () => {
  const res = await runCli(['login', '--email', 'pty@example.test'], env);
  assert.is(res.code, 2);
  assert.match(res.stderr, /--password-stdin/);
});

test.run();
