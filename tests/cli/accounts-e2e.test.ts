import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The built `svc` against a real daemon process: signup → verify (code from the operator mail
 * route) → whoami → logout, through argv, stdin, the file credential store and exit codes.
 */
const MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

function startDaemon(dataDir: string): Promise<{ child: ChildProcess; url: string; invite: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'daemon', 'start', '--foreground', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] });
    const lines: string[] = [];
    const rl = createInterface({ input: child.stdout! });
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${lines.join('\n')}`)));
    rl.on('line', (line) => {
      lines.push(line);
      const invite = /^invite code: (\S+)/.exec(line)?.[1];
      if (invite) resolve({ child, url: /^listening on (\S+)/.exec(lines[0]!)![1]!, invite });
    });
  });
}

function svc(args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', HOME: env.SVC_CONFIG_DIR!, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end(stdin);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('svc signup → verify --from-mail → whoami → logout against a real daemon', async () => {
  const dataDir = tempDir('svc-e2e-data');
  const { child, url, invite } = await startDaemon(dataDir);
  try {
    const env = { SVC_URL: url, SVC_CONFIG_DIR: tempDir('svc-e2e-config'), SVC_KEYCHAIN: 'off', SVC_DATA_DIR: dataDir };
    const signup = await svc(['signup', '--email', 'e2e@example.com', '--invite', invite, '--password-stdin'], env, 'an end to end password\n');
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

    const badLogin = await svc(['login', '--email', 'e2e@example.com', '--password-stdin'], env, 'the wrong password here\n');
    assert.is(badLogin.code, 4);
    assert.match(badLogin.stderr, 'The e-mail or password is incorrect.');
  } finally {
    await new Promise<void>((done) => {
      child.removeAllListeners('exit');
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  }
});

test.run();
