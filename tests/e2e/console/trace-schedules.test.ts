import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { fill, logInWithPassword, press, waitForText } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  test('an unknown trace id shows its error alone; schedule runs are shown in the schedule zone, named', async () => {
    const d = await startConsoleDaemon();
    const { page, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      const company = (await d.t.post('/api/companies', { name: 'Acme' }, u.auth)).body;
      const tenant = { ...u.auth, 'x-company': company.id };
      const sched = await d.t.post(
        '/api/events',
        {
          type: 'schedule:0 9 * * *',
          timezone: 'Asia/Tokyo',
          tool_calls: [{ tool: 'quests.create', args: { title: 'standup' } }],
        },
        tenant,
      );
      assert.is(sched.status, 201, sched.text);
      const fired = await d.t.post('/api/events/trigger', { type: 'session:note' }, tenant);
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);

      // The only Company is picked right after login: the events page shows when it is.
      await page.goto(`${d.consoleUrl}#/events`);
      await waitForText(page, 'Listening');
      await page.goto(`${d.consoleUrl}#/trace/${fired.body.event.id}`);
      await page.waitForSelector('ul.tree');
      await fill(page, 'Event id', 'evt_9999999999999999');
      await press(page, 'Show trace');
      await waitForText(page, 'No event evt_9999999999999999');
      assert.is(await page.$('ul.tree'), null, 'the earlier tree is gone');

      await page.goto(`${d.consoleUrl}#/events/schedules`);
      await waitForText(page, 'Asia/Tokyo');
      const runs = (await page.$$eval('ul.plain li', (lis) => lis.map((li) => li.textContent ?? ''))).filter((t) =>
        /\d:\d\d:\d\d/.test(t),
      );
      assert.ok(runs.length > 0);
      // 09:00 in Tokyo, said with its zone (GMT+9), whatever the browser's own zone is.
      assert.ok(
        runs.every((r) => /(UTC|GMT[+-]\d+)$/.test(r)),
        JSON.stringify(runs),
      );
      assert.is(runs.filter((r) => /9:00:00 AM GMT\+9$/.test(r)).length, 5, JSON.stringify(runs));
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
