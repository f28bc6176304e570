import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI_MAIN, runCli, runProcess, startDaemonProcess, type DaemonProcess } from '../helpers/daemon-process.js';
import { GOOD_PASSWORD } from '../helpers/signup.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * CLI profiles against real processes: a profile that names a data folder once finds its daemon
 * whatever port it picks (--port 0, twice), signup → verify --from-mail with a non-default data
 * folder, auth status / token, svc api, and a login stored under the URL before profiles migrates.
 */
const data = tempDir('svc-data');
const config = tempDir('svc-config');
const env = { SVC_CONFIG_DIR: config, SVC_KEYCHAIN: 'off' };
const svc = (args: string[], extra: Record<string, string> = {}, stdin = '') =>
  runCli(args, { ...env, ...extra }, stdin);
let daemon: DaemonProcess;

/** A command line run by bash in an unrelated folder, as a user pastes it into a new terminal. */
function shell(line: string, stdin = '') {
  return runProcess('bash', ['-c', line], env, stdin, tempDir('svc-elsewhere'));
}

test.before(async () => {
  daemon = await startDaemonProcess(data, ['--default-tier', 'company']);
});
test.after(async () => {
  await daemon.stop();
});

test('a profile named by its data folder: signup, verify --from-mail, and still logged in after a port change', async () => {
  // The banner's next steps, pasted into a shell in another folder (signup given its answers on stdin).
  const [add, signup] = [/^next: in another terminal, run {2}(.+)$/m, /^ +then {2}(.+)$/m].map(
    (re) => re.exec(daemon.stdout())?.[1],
  );
  assert.ok(add && signup, daemon.stdout());
  assert.not.match(daemon.stdout(), /npx/);
  const added = await shell(add!);
  assert.is(added.code, 0, added.stderr);
  const up = await shell(`${signup} --email ada@example.test --password-stdin`, GOOD_PASSWORD + '\n');
  assert.is(up.code, 0, up.stderr);
  assert.not.match(up.stderr, /npx/);
  const verified = await svc(['verify', '--from-mail']);
  assert.is(verified.code, 0, verified.stderr);

  const firstUrl = daemon.url;
  await daemon.stop();
  // Hold the old port while the daemon restarts on --port 0, so it surely picks another one.
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(Number(new URL(firstUrl).port), '127.0.0.1', () => r()));
  daemon = await startDaemonProcess(data, ['--default-tier', 'company']);
  await new Promise((r) => holder.close(r));
  assert.is.not(daemon.url, firstUrl, 'a new port');
  const me = await svc(['whoami', '--json']);
  assert.is(me.code, 0, me.stderr);
  assert.is(JSON.parse(me.stdout).email, 'ada@example.test');
  const mail = await svc(['mail', '--json', 'to,subject']);
  assert.is(mail.code, 0, mail.stderr);
  assert.ok(
    JSON.parse(mail.stdout).every((m: object) => Object.keys(m).join() === 'to,subject'),
    mail.stdout,
  );
});

test('auth status names every profile and where each credential comes from; an SVC_ variable wins and is named', async () => {
  const status = await svc(['auth', 'status', '--json']);
  assert.is(status.code, 0, status.stderr);
  const rows = JSON.parse(status.stdout);
  const local = rows.find((r: any) => r.profile === 'local');
  assert.equal(
    [local.current, local.url, local.user, local.token, local.token_expired],
    [true, daemon.url, 'ada@example.test', 'file', false],
  );
  assert.equal(rows.find((r: any) => r.profile === 'default').user, null);

  const token = (await svc(['auth', 'token'])).stdout.trim();
  // The expiry shown is the token's own `exp`, read from the token (no clock involved).
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
  assert.is(local.token_expires_at, new Date(exp * 1000).toISOString());
  const withEnv = JSON.parse((await svc(['auth', 'status', '--json'], { SVC_TOKEN: token })).stdout);
  assert.is(withEnv.find((r: any) => r.profile === 'local').token, 'SVC_TOKEN');
  const text = await svc(['auth', 'status'], { SVC_TOKEN: token });
  assert.match(text.stdout, /\$SVC_TOKEN \(environment, wins over what is stored\)/);

  const other = await svc(['auth', 'status'], { SVC_PROFILE: 'default' });
  assert.is(other.code, 4, 'the profile in use is not logged in');
  assert.match(other.stderr, /profile default is not logged in/);
});

test('svc api: the stored login, JSON on stdout, non-zero exit on an error answer', async () => {
  const me = await svc(['api', 'GET', '/api/me']);
  assert.is(me.code, 0, me.stderr);
  assert.is(JSON.parse(me.stdout).email, 'ada@example.test');
  const made = await svc(['api', 'POST', '/api/companies', '--data', '{"name":"acme"}']);
  assert.is(made.code, 0, made.stderr);
  assert.is(JSON.parse(made.stdout).name, 'acme');
  const missing = await svc(['api', 'GET', '/api/agents']);
  // A Company route called without naming a Company: a 400 answer.
  assert.is(missing.code, 2, missing.stdout + missing.stderr);
  assert.is(JSON.parse(missing.stdout).code, 'company_required');
  assert.match(missing.stderr, /HTTP 400/);
  const gone = await svc(['api', 'DELETE', '/api/keys/sk_doesnotexist']);
  assert.is(gone.code, 1, gone.stdout + gone.stderr);
  assert.match(gone.stderr, /HTTP 404/);
  const bad = await svc(['api', 'POST', '/api/companies', '--data', '{oops']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /--data is not JSON/);
});

test('a login stored under the URL (before profiles) keeps working and moves to the profile', async () => {
  const token = (await svc(['auth', 'token'])).stdout.trim();
  const oldConfig = tempDir('svc-config');
  mkdirSync(oldConfig, { recursive: true });
  writeFileSync(join(oldConfig, 'credentials.json'), JSON.stringify({ [`token:${daemon.url}`]: token }), {
    mode: 0o600,
  });
  const me = await runCli(['whoami', '--json'], { SVC_CONFIG_DIR: oldConfig, SVC_KEYCHAIN: 'off', SVC_DATA_DIR: data });
  assert.is(me.code, 0, me.stderr);
  assert.equal(JSON.parse(readFileSync(join(oldConfig, 'credentials.json'), 'utf8')), {
    'token:profile:default': token,
  });
});

test('a closed pipe ends the command quietly with exit 0', async () => {
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI_MAIN, 'completion', 'bash'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.once('close', (code) => resolve({ code, stderr }));
  });
  assert.equal(result, { code: 0, stderr: '' });
});

test.run();
