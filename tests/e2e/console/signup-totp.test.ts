import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, press, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { newInvite } from '../../helpers/signup.js';
import { codeNow } from '../../helpers/totp.js';

// Real Chromium against the daemon on a port (skipped, with one printed line, when none is installed).
const browser = await sharedBrowser();

if (browser) {
  test('sign up → verify with the code from the captured-mail page → enrol TOTP (QR, recovery codes) → log in with password + TOTP', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const email = 'ada@example.com';
      const password = 'correct horse battery staple';
      await page.goto(d.consoleUrl + '#/signup');
      await waitForHeading(page, 'Sign up');
      await assertLabelled(page);
      await screenshot(page, 'signup');
      await fill(page, 'E-mail', email);
      await fill(page, 'Password', password);
      await fill(page, 'Invite code', await newInvite(d.t));
      await press(page, 'Create account');
      await waitForHeading(page, 'Verify your e-mail');

      // The captured mail, read in a second tab of the console with the operator token the person pastes.
      const mail = await page.browserContext().newPage();
      await mail.setViewport({ width: 1000, height: 680 });
      await mail.goto(d.consoleUrl + '#/mail');
      await waitForHeading(mail, 'Captured mail');
      await assertLabelled(mail);
      await fill(mail, 'Operator token', d.t.operator.authorization!.replace('Bearer ', ''));
      await press(mail, 'Open captured mail');
      await press(mail, 'Show mail');
      await mail.waitForSelector('.mail-code');
      const code = await mail.$eval('.mail-code', (el) => el.textContent!);
      assert.match(code, /^\d{6}$/);
      await screenshot(mail, 'mail');
      await mail.close();

      await page.bringToFront();
      await fill(page, 'Verification code', code);
      await press(page, 'Verify');
      await waitForHeading(page, 'Profile');
      await assertLabelled(page);
      await screenshot(page, 'profile');

      await page.goto(d.consoleUrl + '#/security');
      await waitForHeading(page, 'Security');
      await press(page, 'Set up two-factor');
      await page.waitForSelector('svg.qr path');
      const secret = await page.$eval('code.secret', (el) => el.textContent!);
      await assertLabelled(page);
      await screenshot(page, 'totp-enrolment', { keepScroll: true });
      await fill(page, 'Code from the app', codeNow(d.t, secret));
      await press(page, 'Turn on two-factor');
      await waitForText(page, 'Save these recovery codes now');
      assert.is(await page.$$eval('ul.codes li', (li) => li.length), 10);
      await press(page, 'I saved them');
      await waitForText(page, 'Recovery codes left: 10');
      await screenshot(page, 'security');

      await press(page, 'Log out');
      await waitForHeading(page, 'Log in');
      // Keyboard only: Tab from the heading to the fields, type, Enter submits.
      await page.focus('h1');
      for (let i = 0; i < 5; i++) await page.keyboard.press('Tab'); // four method tabs, then E-mail
      assert.is(await page.evaluate(() => (document.activeElement as HTMLInputElement).type), 'email');
      // Focus reached by the keyboard is visible: the console's outline, not the browser's faint default.
      assert.is(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle), 'solid');
      assert.is(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineWidth), '3px');
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(password);
      await page.keyboard.press('Enter');
      await waitForText(page, 'Enter the code from your authenticator app');
      d.t.clock.advance(30_000); // the enrolment's step is spent: a code works once
      await page.keyboard.type(codeNow(d.t, secret));
      await page.keyboard.press('Enter');
      await waitForHeading(page, 'Profile');
      const sessions = await d.t.get('/api/auth/sessions', {
        authorization: `Bearer ${(await d.t.post('/api/auth/login', { email, password })).body.partial_token}`,
      });
      assert.is(sessions.status, 401, 'a partial token opens nothing');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
