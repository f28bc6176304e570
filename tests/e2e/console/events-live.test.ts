import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedBrowser } from '../../helpers/browser.js';
import { fill, logInWithPassword, press, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { companyOwner, withConsole } from '../../helpers/console-test.js';

const browser = await sharedBrowser();

if (browser) {
  test('Live opens with the recent events and their content; the trigger form suggests what fires and shows what fired', () =>
    withConsole(browser, async (d, page) => {
      const { u, tenant } = await companyOwner(d.t);
      const cfg = await d.t.post(
        '/api/events',
        { type: 'agent:premature_completion', tool_calls: [{ tool: 'quests.create', args: { title: 'check it' } }] },
        tenant,
      );
      assert.is(cfg.status, 201, cfg.text);
      // Before anyone watches: these must show as history.
      const early = await d.t.post(
        '/api/events/trigger',
        { type: 'session:note', content: { deploy: 'v1.2.3' } },
        tenant,
      );
      assert.is(early.status, 200, early.text);

      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForHeading(page, 'Events');
      await waitForText(page, `Trace ${early.body.event.id}`);
      await waitForText(page, '{"deploy":"v1.2.3"}');
      await waitForText(page, 'e.g. agent:premature_completion, which fires quests.create');
      await waitForText(page, 'Listening: new events appear at the top.');

      await fill(page, 'Event type', 'agent:premature_completion');
      await fill(page, 'Content (JSON, optional)', '{"service":"api"}');
      await press(page, 'Trigger');
      await waitForText(page, `fired quests.create (${cfg.body.event.id}): ok`);
      const listed = await d.t.get('/api/events?last=5', tenant);
      const fired = listed.body.events.find((e: { type: string }) => e.type === 'agent:premature_completion');
      assert.ok(fired, 'the trigger reached the log');
      await waitForText(page, '{"service":"api"}');
      // The new event arrives once, above the history.
      const order = await page.$$eval('ol.events li a', (as) => as.map((a) => a.textContent));
      assert.is(order.filter((t) => t === `Trace ${fired.id}`).length, 1);
      assert.ok(order.indexOf(`Trace ${fired.id}`) < order.indexOf(`Trace ${early.body.event.id}`));
      await screenshot(page, 'events-live-fired');

      await fill(page, 'Event type', 'custom:nobody.listens');
      await fill(page, 'Content (JSON, optional)', '');
      await press(page, 'Trigger');
      await waitForText(page, 'Nothing is configured for this type: it was recorded and fired nothing.');
    }));

  test('with nothing configured, the form says a trigger is only recorded', () =>
    withConsole(browser, async (d, page) => {
      const { u } = await companyOwner(d.t, 'Empty');
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events');
      await waitForText(page, 'Nothing is configured to fire yet (see Configured)');
      await waitForText(page, 'No events yet.');
      assert.not.ok((await page.evaluate(() => document.body.innerText)).includes('custom:deploy.finished'));
    }));

  test.run();
}
