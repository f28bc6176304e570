import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon, type ConsoleDaemon } from '../../helpers/console-daemon.js';
import { logInWithPassword, waitForHeading } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

/** The live sessions of the account, as Security → Sessions lists them, besides the observer's own. */
async function otherSessions(d: ConsoleDaemon, auth: Record<string, string>): Promise<string[]> {
  const res = await d.t.get('/api/auth/sessions', auth);
  assert.is(res.status, 200, res.text);
  return res.body.sessions.filter((s: { current: boolean }) => !s.current).map((s: { id: string }) => s.id);
}

/** The keepalive logout is sent as the page goes; the daemon answers it a moment later. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.unreachable(what);
}

if (browser) {
  test('a reload or leaving the page ends the console session on the daemon: no live session left behind', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      const observer = u.auth;
      assert.equal(await otherSessions(d, observer), []);

      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      const [first] = await otherSessions(d, observer);
      assert.ok(first, 'the console holds a session');
      await page.reload();
      await waitForHeading(page, 'Log in');
      await until(
        async () => (await otherSessions(d, observer)).length === 0,
        'the reloaded page left its session live',
      );

      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      const [second] = await otherSessions(d, observer);
      assert.ok(second && second !== first, 'a new login is a new session');
      await page.goto('about:blank');
      await until(
        async () => (await otherSessions(d, observer)).length === 0,
        'leaving the page left its session live',
      );
      // The observer's own session was never touched.
      assert.is((await d.t.get('/api/me', observer)).status, 200);
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
