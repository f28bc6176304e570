import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, startDaemonProcess } from '../helpers/daemon-process.js';
import { startSmtpServer } from '../helpers/smtp.js';
import { tempDir } from '../helpers/temp-dir.js';

const test = suite('daemon with --smtp / SVC_SMTP_URL; a --database it cannot use');

const signup = (url: string, email: string, invite: string) =>
  fetch(`${url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', invite_code: invite }),
  });

test('svc daemon start --smtp: the verification code arrives at the SMTP server and verifies the account', async () => {
  const smtp = await startSmtpServer();
  const dir = tempDir('svc-data');
  const daemon = await startDaemonProcess(dir, ['--smtp', `${smtp.url}?from=svc%40example.test`]);
  try {
    assert.is((await signup(daemon.url, 'ada@example.test', daemon.invite)).status, 200);
    const mail = await smtp.next((m) => m.to.includes('ada@example.test'));
    const code = /verification code is (\d{6})/.exec(mail.raw)?.[1];
    assert.ok(code, mail.raw);
    const verify = await fetch(`${daemon.url}/api/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.test', code }),
    });
    assert.is(verify.status, 200);
    // Sent, not captured: the operator's mail view stays empty.
    const token = (await import('node:fs')).readFileSync(`${dir}/operator-token`, 'utf8').trim();
    const captured = await fetch(`${daemon.url}/api/dev/mail`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await captured.json()).mail, []);
  } finally {
    await daemon.stop();
    await smtp.close();
  }
});

test('--database / SVC_DATABASE_URL that cannot be used stop the start with one line, without the password', async () => {
  const dir = tempDir('svc-data');
  const run = await runCli(
    [
      'daemon',
      'start',
      '--foreground',
      '--port',
      '0',
      '--data',
      dir,
      '--database',
      'postgres://svc:hunter2@127.0.0.1:1/svc',
    ],
    { SVC_DATA_DIR: dir },
  );
  assert.is(run.code, 1);
  assert.match(run.stderr, /^svc: cannot reach the database at postgres:\/\/svc:\*\*\*@127\.0\.0\.1:1\/svc: /);
  assert.is(run.stderr.trim().split('\n').length, 1);
  assert.not.match(run.stderr, /hunter2/);
  const viaEnv = await runCli(['daemon', 'start', '--foreground', '--port', '0', '--data', dir], {
    SVC_DATA_DIR: dir,
    SVC_DATABASE_URL: 'mysql://svc:hunter2@db/svc',
  });
  assert.is(viaEnv.code, 1);
  assert.match(
    viaEnv.stderr,
    /^svc: invalid database URL mysql:\/\/svc:\*\*\*@db\/svc: it must start with postgres:\/\//,
  );
});

test('a malformed SVC_SMTP_URL stops the start with one line', async () => {
  const dir = tempDir('svc-data');
  const run = await runCli(['daemon', 'start', '--foreground', '--port', '0', '--data', dir], {
    SVC_DATA_DIR: dir,
    SVC_SMTP_URL: 'http://u:hunter2@mail',
  });
  assert.is(run.code, 1);
  assert.match(run.stderr, /^svc: invalid SMTP URL http:\/\/u:\*\*\*@mail: it must start with smtp:\/\/ or smtps:\/\//);
  assert.not.match(run.stderr, /hunter2/);
});

test.run();
