import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { fill, press, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { waitForMail } from '../../helpers/mail.js';
import { GOOD_PASSWORD, signUp } from '../../helpers/signup.js';

const browser = await sharedBrowser();

const navLinks = (page: import('puppeteer-core').Page) =>
  page.$$eval('header nav a', (as) => as.map((a) => `${a.textContent} ${a.getAttribute('href')}`));

if (browser) {
  test('logged out: a nav to Log in, Sign up and Mail; "Forgot password?" sends the reset link and points at the Mail page', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      await signUp(d.t, 'ada@example.com');
      await page.goto(d.consoleUrl);
      await waitForHeading(page, 'Log in');
      assert.equal(await navLinks(page), ['Log in #/login', 'Sign up #/signup', 'Mail #/mail']);
      await press(page, 'Sign up');
      await waitForHeading(page, 'Sign up');
      await press(page, 'Log in');
      await waitForHeading(page, 'Log in');

      await press(page, 'Forgot password?');
      await waitForHeading(page, 'Reset your password');
      await fill(page, 'E-mail', 'ada@example.com');
      await press(page, 'Send me a reset link');
      await waitForText(page, 'If ada@example.com has an account, a reset link is on its way.');
      assert.ok(await page.$('main a[href="#/mail"]'), 'the Mail page is one click away');
      const mail = await waitForMail(d.t, 'ada@example.com', (m) => /reset/i.test(m.subject));
      assert.ok(mail, 'the reset link was sent');
      await press(page, 'Back to log in');
      await waitForHeading(page, 'Log in');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test('the verify page links the Mail page; while unverified the nav offers only Mail', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      await signUp(d.t, 'bob@example.com');
      await page.goto(d.consoleUrl);
      await waitForHeading(page, 'Log in');
      await fill(page, 'E-mail', 'bob@example.com');
      await fill(page, 'Password', GOOD_PASSWORD);
      await press(page, 'Log in');
      await waitForHeading(page, 'Verify your e-mail');
      await waitForText(page, 'the Mail page shows it');
      assert.ok(await page.$('main a[href="#/mail"]'));
      assert.equal(await navLinks(page), ['Mail #/mail']);
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
