import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { logInWithPassword, press, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  test('the Audit page lists the login just made, failed ones included, and filters by outcome', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      await d.t.post('/api/auth/login', { email: u.user.email, password: 'not the password at all' });
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/audit');
      await waitForHeading(page, 'Audit');
      await waitForText(page, 'account.login');
      await waitForText(page, 'invalid_credentials');
      await page.select('select', 'refused');
      await press(page, 'Show entries');
      await page.waitForFunction(() => !document.body.innerText.includes('succeeded\taccount.login'));
      const rows = await page.$$eval('tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
      assert.ok(rows.length >= 1);
      assert.ok(
        rows.every((r) => r.includes('refused')),
        rows.join('\n'),
      );
      await screenshot(page, 'audit-refused');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });
}

test.run();
