import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, press, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { CLI_MAIN, runCli } from '../../helpers/daemon-process.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';

const browser = await sharedBrowser();

if (browser) {
  test('svc login --web in a terminal: the CLI shows a code and opens the page, the browser logs in and approves, the CLI gets its OWN session', async () => {
    // Real time here: the CLI (a child process) polls on its own clock, and the daemon throttles polls per second.
    const clock = new FakeClock(Date.now());
    clock.now = () => Date.now();
    const d = await startConsoleDaemon({ clock });
    const { page, errors, close } = await openPage(browser);
    const home = tempDir('svc-cli-home');
    // The CLI runs in a pseudo-terminal (util-linux `script`) when there is one, as a person runs
    // it: it is then interactive and opens the page with $BROWSER, here a script that notes the URL
    // for this test's Chromium. Without `script`, a plain child process prints the URL instead.
    const opener = join(home, 'open-browser.sh');
    writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${home}/opened-url'\n`, { mode: 0o755 });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      SVC_URL: d.url,
      SVC_CONFIG_DIR: home,
      SVC_KEYCHAIN: 'off',
      BROWSER: opener,
      TERM: 'dumb',
    };
    const pty = existsSync('/usr/bin/script');
    const cli = pty
      ? spawn('script', ['-qefc', `'${process.execPath}' '${CLI_MAIN}' login --web`, '/dev/null'], {
          env,
          stdio: ['pipe', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, [CLI_MAIN, 'login', '--web'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    cli.stdout!.on('data', (c) => (stdout += c));
    cli.stderr!.on('data', (c) => (stderr += c));
    const output = () => stdout + stderr;
    const exited = new Promise<number | null>((r) => cli.once('close', r));
    try {
      const u = await createUser(d.t);
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          // In the terminal: wait for both the opener's note and the CLI's line saying it opened the page.
          const opened =
            existsSync(join(home, 'opened-url')) && /Opened \S+ in your browser\./.test(output())
              ? readFileSync(join(home, 'opened-url'), 'utf8')
              : null;
          const m = pty ? (opened ? [null, opened] : null) : /Open this page in a browser: (\S+)/.exec(stderr);
          if (m?.[1]) clearInterval(timer), resolve(m[1]);
          if (cli.exitCode !== null) clearInterval(timer), reject(new Error(`the CLI exited: ${output()}`));
        }, 50);
      });
      if (pty) assert.ok(output().includes(`Opened ${url} in your browser.`), output());
      const code = /Your pairing code: ([A-Z]{4}-[A-Z]{4})/.exec(output())?.[1];
      assert.ok(code, output());
      assert.is(url, `${d.consoleUrl}#/pair/${code}`);

      await page.goto(url);
      await waitForHeading(page, 'Log in to approve a terminal');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForHeading(page, 'Log in a terminal');
      await page.waitForSelector('.pair-code');
      assert.is(
        await page.$eval('.pair-code', (el) => el.textContent),
        code,
        'the page shows the same code as the terminal',
      );
      await waitForText(page, 'svc CLI on');
      await assertLabelled(page);
      await screenshot(page, 'pair');
      await press(page, 'Approve');
      await waitForText(page, 'Your terminal is logged in');

      assert.is(await exited, 0, output());
      assert.match(
        output(),
        new RegExp(`Logged in to ${d.url.replace(/[.]/g, '\\.')} as ${u.user.email!.replace(/[.]/g, '\\.')}`),
      );
      // The CLI's session is its own: a new row, from a pairing approved by a password login.
      const sessions = (await d.t.get('/api/auth/sessions', u.auth)).body.sessions as {
        method: string[];
        user_agent: string;
        current: boolean;
      }[];
      const paired = sessions.filter((s) => s.method[0] === 'pairing');
      assert.is(paired.length, 1, JSON.stringify(sessions));
      assert.equal(paired[0]!.method, ['pairing', 'pwd']);
      assert.match(paired[0]!.user_agent, /svc/i);
      const whoami = await runCli(['whoami', '--json'], env);
      assert.is(whoami.code, 0, whoami.stderr);
      assert.is(JSON.parse(whoami.stdout).email, u.user.email);
      assert.equal(errors, []);
    } finally {
      cli.kill();
      await close();
      await d.close();
    }
  });

  test('approving from a login over 10 minutes old: the page says so, logs in again keeping the code, then approves', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t);
      await page.goto(`${d.consoleUrl}#/pair`);
      await waitForHeading(page, 'Log in to approve a terminal');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForHeading(page, 'Log in a terminal');
      // The tab stays open past the recent-login window; then a terminal asks.
      d.t.clock.advance(11 * 60_000);
      const started = (
        await d.t.post('/api/auth/pairing/start', { client: 'svc CLI on e2e' }, { 'user-agent': 'svc/0.1.0 node/20' })
      ).body;
      await fill(page, 'Pairing code', started.user_code);
      await press(page, 'Continue');
      await page.waitForSelector('.pair-code');
      await press(page, 'Approve');
      await waitForText(page, 'Your login is too old to approve a terminal.');
      await waitForText(page, 'log in again');
      await assertLabelled(page);
      await screenshot(page, 'pair-reauth');
      await press(page, 'Log in again');
      await waitForHeading(page, 'Log in to approve a terminal');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForHeading(page, 'Log in a terminal');
      await page.waitForSelector('.pair-code');
      assert.is(await page.$eval('.pair-code', (el) => el.textContent), started.user_code, 'the code was kept');
      await press(page, 'Approve');
      await waitForText(page, 'Your terminal is logged in');
      d.t.clock.advance(2000);
      const polled = await d.t.post('/api/auth/pairing/poll', { device_code: started.device_code });
      assert.is(polled.body.status, 'approved', polled.text);
      // The stale browser session was ended, not just forgotten by the page: one browser login is live.
      const live = await d.t.deps.stores.sessions.listActive(u.user.id, new Date(d.t.clock.now()).toISOString());
      assert.is(live.filter((s) => /Chrome/.test(s.user_agent ?? '') && s.method[0] === 'pwd').length, 1);
      // The refused approval (403) and a lookup racing the logout (401) log as failed loads; nothing else may.
      assert.equal(
        errors.filter((e) => !/Failed to load resource: the server responded with a status of 40[13]/.test(e)),
        [],
      );
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
