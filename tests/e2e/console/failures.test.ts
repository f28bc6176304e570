import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedBrowser } from '../../helpers/browser.js';
import {
  assertLabelled,
  logInWithPassword,
  press,
  screenshot,
  waitForHeading,
  waitForText,
} from '../../helpers/console-page.js';
import { companyOwner, withConsole } from '../../helpers/console-test.js';

const browser = await sharedBrowser();

if (browser) {
  test('failures: the failed calls are listed; the chosen ones are replayed once, the others stay; a second replay is skipped', () =>
    withConsole(browser, async (d, page) => {
      const { u, tenant } = await companyOwner(d.t);
      // A message to a role nobody has fails; it works once an agent has the role.
      const rule = await d.t.post(
        '/api/events',
        { type: 'loop:detected', tool_calls: [{ tool: 'message_to', args: { to: 'reviewer', text: 'look' } }] },
        tenant,
      );
      assert.is(rule.status, 201, rule.text);
      const first = (await d.t.post('/api/events/trigger', { type: 'loop:detected' }, tenant)).body.event.id;
      const second = (await d.t.post('/api/events/trigger', { type: 'loop:detected' }, tenant)).body.event.id;

      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      // Their only Company is picked at login.
      await page.goto(d.consoleUrl + '#/companies');
      await waitForText(page, 'selected');
      await press(page, 'Failures');
      await waitForHeading(page, 'Failures');
      await waitForText(page, first);
      await waitForText(page, "No agent has the id or role 'reviewer'");
      await assertLabelled(page);
      await screenshot(page, 'failures');

      assert.is((await d.t.post('/api/agents', { name: 'Rita', role: 'reviewer' }, tenant)).status, 201);
      // A tick box, found by its label as a screen reader names it.
      await page.click(`[aria-label="Choose message_to of ${first}"]`);
      await press(page, 'Replay 1 chosen');
      await waitForText(page, `Replayed ${first}|`);
      await waitForText(page, 'it worked');
      await waitForText(page, 'replayed as evt_');
      const listed = (await d.t.get('/api/events/failures', tenant)).body.failures;
      assert.equal(
        listed.map((f: { event_id: string; replayed_at: string | null }) => [f.event_id, f.replayed_at !== null]),
        [
          [first, true],
          [second, false],
        ],
      );
      const replay = listed[0].replay_event_id as string;
      assert.is((await d.t.get(`/api/events/${replay}`, tenant)).body.event.source, 'replay');
      // The replayed row has no box to tick any more; the other one is still offered.
      assert.is(await page.$(`[aria-label="Choose message_to of ${first}"]`), null);
      assert.ok(await page.$(`[aria-label="Choose message_to of ${second}"]`));
      // The same failure replayed again (from anywhere) runs nothing more.
      const again = await d.t.post('/api/events/replay', { failure_id: listed[0].id }, tenant);
      assert.equal(again.body.skipped, [
        { failure_id: listed[0].id, reason: 'already_replayed', replay_event_id: replay },
      ]);
      await press(page, 'Choose all');
      await press(page, 'Replay 1 chosen');
      await waitForText(page, `Replayed ${second}|`);
      await press(page, replay);
      await waitForHeading(page, 'Trace');
    }));

  test.run();
}
