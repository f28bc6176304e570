import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, logInWithPassword, press, screenshot, waitForText } from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  test('Configured: ids, scope, matcher and args shown; a marker with no tools is not "active"; create (an unknown name is called out) and delete', async () => {
    const d = await startConsoleDaemon();
    const { page, errors, close } = await openPage(browser);
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      const u = await createUser(d.t, { tier: 'company' });
      const company = (await d.t.post('/api/companies', { name: 'Acme' }, u.auth)).body;
      const tenant = { ...u.auth, 'x-company': company.id };
      const marker = (await d.t.post('/api/events', { type: 'session:stopped', tool_calls: [] }, tenant)).body.event;
      const agent = (await d.t.post('/api/agents', { name: 'reviewer' }, tenant)).body.agent;
      const made1 = await d.t.post(
        '/api/events',
        {
          type: 'session:stopped',
          agent_id: agent.id,
          matcher: { kind: 'predicated', field: 'reason', regex: '^crash' },
          tool_calls: [{ tool: 'quests.create', args: { title: 'look at it' } }],
        },
        tenant,
      );
      assert.is(made1.status, 201, made1.text);
      const scoped = made1.body.event;

      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/events/configured');
      await waitForText(page, scoped.id);
      const text = await page.evaluate(() => document.querySelector('table')!.innerText);
      assert.match(text, marker.id);
      assert.match(text, 'on, no tool calls: fires nothing');
      assert.match(text, `agent ${agent.id}`);
      assert.match(text, '"regex":"^crash"');
      assert.match(text, 'quests.create {"title":"look at it"}');
      assert.not.match(text.split(marker.id)[1]!.split('\n')[0]!, /\bactive\b/);
      await assertLabelled(page);

      await fill(page, 'Pattern', 'session:error');
      await press(page, 'Create configured event');
      await waitForText(page, "but it will never fire: no emitter produces 'session:error'");
      await waitForText(page, 'Names that fire: ');
      const bad = (await d.t.get('/api/events?configured=true', tenant)).body.events.find(
        (e: { type: string }) => e.type === 'session:error',
      );
      await press(page, `Delete ${bad.id}`);
      await page.waitForFunction(
        (id) => !document.body.innerText.includes(`${id}\n`) && !document.querySelector(`[aria-label="Delete ${id}"]`),
        {},
        bad.id,
      );

      await fill(page, 'Pattern', 'session:start');
      await fill(page, 'Arguments (JSON)', '{"title":"kick-off"}');
      await press(page, 'Create configured event');
      await waitForText(page, '(active).');
      const listed = (await d.t.get('/api/events?configured=true', tenant)).body.events;
      const types = listed.map((e: { type: string }) => e.type).filter((t: string) => !t.startsWith('schedule:'));
      assert.equal(types.sort(), ['session:start', 'session:stopped', 'session:stopped']);
      const made = listed.find((e: { type: string }) => e.type === 'session:start');
      assert.equal(made.tool_calls, [{ tool: 'quests.create', args: { title: 'kick-off' } }]);
      await screenshot(page, 'events-configured-manage');

      await fill(page, 'Arguments (JSON)', '{nope');
      await press(page, 'Create configured event');
      await waitForText(page, 'Arguments must be a JSON object');
      assert.equal(errors, []);
    } finally {
      await close();
      await d.close();
    }
  });

  test.run();
}
