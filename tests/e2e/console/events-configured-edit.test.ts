import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, logInWithPassword, press, screenshot, waitForText } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  for (const width of [1280, 390]) {
    test(`Configured at ${width} px: Edit opens the form prefilled, refuses what create refuses, saves the tool calls`, async () => {
      const d = await startConsoleDaemon();
      const { page, errors, close } = await openPage(browser);
      try {
        await page.setViewport({ width, height: 800 });
        const u = await createUser(d.t, { tier: 'company' });
        const company = (await d.t.post('/api/companies', { name: 'Acme' }, u.auth)).body;
        const tenant = { ...u.auth, 'x-company': company.id };
        const made = await d.t.post(
          '/api/events',
          { type: 'session:stopped', tool_calls: [{ tool: 'quests.create', args: { title: 'look at it' } }] },
          tenant,
        );
        assert.is(made.status, 201, made.text);
        const rule = made.body.event;
        const other = (await d.t.post('/api/events', { type: 'session:start', tool_calls: [] }, tenant)).body.event;

        await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
        await page.goto(d.consoleUrl + '#/events/configured');
        await waitForText(page, rule.id);
        await press(page, `Edit ${rule.id}`);
        await waitForText(page, `Edit ${rule.id}`);
        const form = '[aria-label="Edit configured event"]';
        const prefilled = await page.$eval(form, (f) =>
          [...f.querySelectorAll('input, select')].map((el) => (el as HTMLInputElement).value),
        );
        assert.equal(prefilled, ['quests.create', '{"title":"look at it"}']);
        assert.match(await page.$eval(form, (f) => (f as HTMLElement).innerText), 'session:stopped');
        await assertLabelled(page);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= width, `the edit form at ${width} px lays out ${wide} px wide`);

        // What create refuses, edit refuses: arguments that are not a JSON object, and what the daemon says no to.
        await fill(page, 'Arguments (JSON)', '["not","an","object"]');
        await press(page, 'Save changes');
        await waitForText(page, 'Arguments must be a JSON object');
        await fill(page, 'Arguments (JSON)', '{"title":""}');
        await press(page, 'Save changes');
        const refused = await page.waitForFunction(
          (f) => document.querySelector(`${f} [role="alert"]`)?.textContent || null,
          {},
          form,
        );
        assert.not.match(String(await refused.jsonValue()), 'JSON object');
        assert.equal((await d.t.get(`/api/events/${rule.id}`, tenant)).body.event.tool_calls, rule.tool_calls);

        await fill(page, 'Arguments (JSON)', '{"title":"triage {{event.type}}"}');
        await press(page, 'Add a tool call');
        await fill(page, 'Arguments 2 (JSON)', '{"title":"and a second one"}');
        await page.$eval(form, (f) => f.closest('section')!.scrollIntoView({ block: 'start' }));
        await screenshot(page, `events-configured-edit-${width}`, { keepScroll: true });
        await press(page, 'Save changes');
        await waitForText(page, `Saved ${rule.id} (active).`);
        const saved = (await d.t.get(`/api/events/${rule.id}`, tenant)).body.event;
        assert.equal(saved.tool_calls, [
          { tool: 'quests.create', args: { title: 'triage {{event.type}}' } },
          { tool: 'quests.create', args: { title: 'and a second one' } },
        ]);
        assert.is(saved.type, 'session:stopped');
        await waitForText(page, 'quests.create {"title":"and a second one"}');
        // The other rule was not touched.
        assert.equal((await d.t.get(`/api/events/${other.id}`, tenant)).body.event.tool_calls, []);

        // A rule deleted elsewhere while its form is open: the daemon's sentence, nothing saved.
        await press(page, 'Close');
        await press(page, `Edit ${other.id}`);
        await waitForText(page, 'the rule is a marker that fires nothing');
        await press(page, 'Add a tool call');
        await fill(page, 'Arguments (JSON)', '{"title":"x"}');
        await d.t.del(`/api/events/${other.id}`, tenant);
        await press(page, 'Save changes');
        const gone = await page.waitForFunction(
          (f) => document.querySelector(`${f} [role="alert"]`)?.textContent || null,
          {},
          form,
        );
        assert.match(String(await gone.jsonValue()), other.id);
        await press(page, 'Cancel');
        await page.waitForFunction(() => !document.querySelector('[aria-label="Edit configured event"]'));
        await waitForText(page, 'New configured event');
        // The refused saves are the only failed requests.
        assert.equal(
          errors.filter((e) => !/Failed to load resource: the server responded with a status of 40[04]/.test(e)),
          [],
        );
      } finally {
        await close();
        await d.close();
      }
    });
  }

  test.run();
}
