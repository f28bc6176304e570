import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { logInWithPassword, press, waitForHeading, waitForText } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  test('one Company: the events pages open on it after login, with no picking', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      await d.t.post('/api/companies', { name: 'Solo' }, u.auth);
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForHeading(page, 'Events');
      await waitForText(page, 'Listening: new events appear at the top.');
      assert.not.ok((await page.evaluate(() => document.body.innerText)).includes('select or create one'));
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test('two Companies: asked once; the choice is remembered for the next login in this browser, per account', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      await d.t.post('/api/companies', { name: 'Alpha' }, u.auth);
      const beta = (await d.t.post('/api/companies', { name: 'Beta' }, u.auth)).body;
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForText(page, 'select or create one');
      await page.goto(d.consoleUrl + '#/companies');
      await press(page, 'Select Beta');
      await waitForText(page, 'selected');

      // A reload ends the in-memory login: log in again, and Beta is already the one.
      await page.reload();
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForText(page, 'Listening: new events appear at the top.');
      const fired = await d.t.post(
        '/api/events/trigger',
        { type: 'custom:beta.ping' },
        { ...u.auth, 'x-company': beta.id },
      );
      assert.is(fired.status, 200, fired.text);
      await waitForText(page, `Trace ${fired.body.event.id}`);

      // Another account in the same browser does not inherit it.
      const other = await createUser(d.t, { tier: 'company' });
      await d.t.post('/api/companies', { name: 'Gamma' }, other.auth);
      await d.t.post('/api/companies', { name: 'Delta' }, other.auth);
      await page.reload();
      await logInWithPassword(page, d.consoleUrl, other.user.email!, other.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForText(page, 'select or create one');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
