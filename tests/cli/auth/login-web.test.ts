import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runWebLogin as runWebLoginIn } from '../../../cli/commands/auth/login-web.js';
import { FailedError } from '../../../cli/errors.js';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { startConsoleDaemon, type ConsoleDaemon } from '../../helpers/console-daemon.js';
import { CLI_MAIN } from '../../helpers/daemon-process.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';

/**
 * `svc login --web` as a process without a terminal; the test approves or denies through the API
 * as the console page would (tests/e2e/console/login-web.test.ts does it in a real browser).
 */
async function runWebLogin(
  args: string[],
  decide: (d: ConsoleDaemon, u: TestUser, userCode: string) => Promise<unknown>,
) {
  // The CLI process waits the pairing's interval (2 s) on its own clock before each poll; the
  // daemon's fake clock moves by that interval as each poll arrives, so its one-poll-a-second
  // throttle sees the pace it would see, however slowly the machine runs the two.
  const clock = new FakeClock();
  const d = await startConsoleDaemon({
    clock,
    extend: (app) =>
      app.middleware.unshift(async (ctx, next) => {
        if (ctx.path === '/api/auth/pairing/poll') clock.advance(2000);
        await next();
      }),
  });
  const u = await createUser(d.t);
  const home = tempDir('svc-cli-home');
  const child = spawn(process.execPath, [CLI_MAIN, 'login', '--web', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      SVC_URL: d.url,
      SVC_CONFIG_DIR: home,
      SVC_KEYCHAIN: 'off',
      DISPLAY: ':0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let decided = false;
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => {
    stderr += c;
    const code = /Your pairing code: (\S+)/.exec(stderr)?.[1];
    if (code && !decided) void decide(d, u, code).catch((err) => (stderr += `\n[test] ${err}`));
    decided ||= Boolean(code);
  });
  const exit = await new Promise<number | null>((r) => child.once('close', r));
  await d.close();
  return { d, u, exit, stdout, stderr };
}

test('no terminal: the page URL is printed (no browser is opened), progress goes to stderr, --json prints one answer', async () => {
  const run = await runWebLogin(['--json'], (d, u, code) =>
    d.t.post('/api/auth/pairing/approve', { user_code: code }, u.auth),
  );
  assert.is(run.exit, 0, run.stderr);
  assert.match(run.stderr, /Open this page in a browser: http:\/\/localhost:\d+\/#\/pair\/[A-Z]{4}-[A-Z]{4}/);
  assert.not.match(run.stderr, /Opened /);
  const answer = JSON.parse(run.stdout);
  assert.equal([answer.ok, answer.logged_in_as, answer.method], [true, run.u.user.email, 'pairing']);
  const row = (await run.d.t.deps.stores.sessions.find(answer.session_id))!;
  assert.equal(row.method, ['pairing', 'pwd']);
});

test('denied in the browser: the CLI stops with exit 130, stores nothing', async () => {
  const run = await runWebLogin([], (d, u, code) => d.t.post('/api/auth/pairing/deny', { user_code: code }, u.auth));
  assert.is(run.exit, 130, run.stderr);
  assert.match(run.stderr, /denied/);
  assert.is(run.stdout, '');
});

test('approved, then the approving browser session ended before the poll: one clear line, nothing saved', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t);
    const cli = createFakeCli({ url: server.url });
    // The CLI's wait between polls: the browser approves, then logs out, before the first poll.
    const sleep = async () => {
      const code = /Your pairing code: (\S+)/.exec(cli.stderr())![1];
      assert.is((await t.post('/api/auth/pairing/approve', { user_code: code }, u.auth)).status, 200);
      assert.is((await t.post('/api/auth/logout', {}, u.auth)).status, 200);
      t.clock.advance(2000);
    };
    try {
      await runWebLoginIn(cli.ctx, { noBrowser: true, sleep });
      assert.unreachable('the poll is refused');
    } catch (err) {
      assert.instance(err, FailedError);
      assert.match((err as FailedError).message, /session that approved this pairing has ended/);
      assert.not.match((err as FailedError).message, /\n/);
      assert.match(String((err as FailedError).hint), /svc login --web/);
    }
    assert.equal([...cli.credentials.keys()], [], 'no login saved');
  } finally {
    await server.close();
  }
});

test.run();
