import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, press, waitForHeading } from '../../helpers/console-page.js';
import { waitForMail } from '../../helpers/mail.js';

const browser = await sharedBrowser();

if (browser) {
  test('the magic link opens the console, the button logs in, the console keeps the session, and the token leaves the address bar; no storage is used', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t);
      assert.is((await d.t.post('/api/auth/login/code/request', { email: u.user.email })).status, 200);
      const mail = await waitForMail(d.t, u.user.email!, (m) => m.link !== null);
      await page.goto(mail.link!);
      await waitForHeading(page, 'Log in to svc');
      assert.is(new URL(page.url()).search, '', 'the link token is dropped from the address bar at once');
      await press(page, 'Log in');
      await waitForHeading(page, 'Profile');
      // Held in memory only: nothing in either storage, no cookie, and the URL carries no token.
      const traces = await page.evaluate(() => ({
        local: localStorage.length,
        session: sessionStorage.length,
        cookie: document.cookie,
        url: location.href,
      }));
      assert.equal([traces.local, traces.session, traces.cookie], [0, 0, '']);
      assert.not.match(traces.url, /token|eyJ/);
      // A reload forgets the login (the price of keeping it out of storage).
      await page.reload();
      await waitForHeading(page, 'Log in');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test('the e-mailed code: asked for on the login page, typed in, logged in', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t);
      await page.goto(d.consoleUrl);
      await waitForHeading(page, 'Log in');
      await press(page, 'E-mailed code');
      await fill(page, 'E-mail', u.user.email!);
      await press(page, 'Send me a code');
      const mail = await waitForMail(d.t, u.user.email!, (m) => m.code !== null);
      await assertLabelled(page);
      await fill(page, '6-digit code', mail.code!);
      await press(page, 'Log in');
      await waitForHeading(page, 'Profile');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
