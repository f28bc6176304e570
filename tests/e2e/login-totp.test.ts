import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { totpCodeAt } from '../../daemon/auth/totp/totp-codes.js';
import { runCli as svc, startDaemonProcess } from '../helpers/daemon-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { mailedCode } from '../proof/lib/accounts.js';

/**
 * `svc login` with a password and TOTP, end to end: the built CLI against a real daemon process.
 * The account is enrolled over HTTP with the previous 30-second step's code (±1 step of
 * drift is allowed), so the login can use the current step's code without waiting for a new step.
 */
const PASSWORD = 'correct horse battery staple';

test('svc login with a password and --totp-code against a real daemon; no code → usage error; a replayed code → refused', async () => {
  const dataDir = tempDir('svc-e2e-totp');
  const daemon = await startDaemonProcess(dataDir);
  try {
    const operator = { authorization: `Bearer ${readFileSync(join(dataDir, 'operator-token'), 'utf8').trim()}` };
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(daemon.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const email = 'totp-e2e@example.com';
    const { code: invite } = (await call('POST', '/api/dev/invites', {}, operator)).body;
    assert.is((await call('POST', '/api/auth/signup', { email, password: PASSWORD, invite_code: invite })).status, 200);
    const verified = await call('POST', '/api/auth/verify', {
      email,
      code: await mailedCode(daemon.url, dataDir, email),
    });
    const auth = { authorization: `Bearer ${verified.body.token}` };
    const secret = (await call('POST', '/api/auth/totp/enroll', {}, auth)).body.secret as string;
    const confirm = await call(
      'POST',
      '/api/auth/totp/enroll/confirm',
      { code: totpCodeAt(secret, Date.now() - 30_000) },
      auth,
    );
    assert.is(confirm.status, 200, JSON.stringify(confirm.body));

    const env = { SVC_URL: daemon.url, SVC_CONFIG_DIR: tempDir('svc-e2e-config'), SVC_KEYCHAIN: 'off' };
    const noCode = await svc(['login', '--email', email, '--password-stdin'], env, PASSWORD + '\n');
    assert.is(noCode.code, 2, noCode.stderr);
    assert.match(noCode.stderr, /--totp-code/);

    const now = totpCodeAt(secret, Date.now());
    const login = await svc(['login', '--email', email, '--password-stdin', '--totp-code', now], env, PASSWORD + '\n');
    assert.is(login.code, 0, login.stderr);
    const whoami = await svc(['whoami', '--json'], env);
    assert.is(whoami.code, 0, whoami.stderr);
    assert.is(JSON.parse(whoami.stdout).email, email);

    // The same code again, through a fresh partial token: its step is spent.
    const replay = await svc(['login', '--email', email, '--password-stdin', '--totp-code', now], env, PASSWORD + '\n');
    assert.is.not(replay.code, 0);
  } finally {
    await daemon.stop();
  }
});

test.run();
