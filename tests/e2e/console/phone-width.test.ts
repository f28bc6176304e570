import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'puppeteer-core';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon, type ConsoleDaemon } from '../../helpers/console-daemon.js';
import { logInWithPassword, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { assertFits as fits } from '../../helpers/console-test.js';

const browser = await sharedBrowser();

/** A desktop and a phone: every page must fit both without a sideways scroll. */
const WIDTHS = [1280, 390] as const;

/** The page fits the width (console-test.ts), and its screenshot is kept for review. */
async function assertFits(page: Page, width: number, name: string): Promise<void> {
  await fits(page, width, name);
  await screenshot(page, `${name}-${width}`);
}

/** A Company with something on every page: long ids, keys, sessions, configured events and schedules. */
async function seed(d: ConsoleDaemon) {
  const u = await createUser(d.t, { tier: 'company' });
  const company = (await d.t.post('/api/companies', { name: 'Acme Laboratories International' }, u.auth)).body;
  const tenant = { ...u.auth, 'x-company': company.id };
  for (const name of ['laptop', 'ci-runner-with-a-long-name'])
    await d.t.post('/api/keys', { root: company.id, name, scopes: ['events:read', 'events:trigger'] }, u.auth);
  // A second live session with a long user agent: the Sessions table's widest cell.
  await d.t.post(
    '/api/auth/login',
    { email: u.user.email, password: u.password },
    {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    },
  );
  const cfg = await d.t.post(
    '/api/events',
    { type: 'agent:premature_completion', tool_calls: [{ tool: 'quests.create', args: { title: 'follow up' } }] },
    tenant,
  );
  assert.is(cfg.status, 201, cfg.text);
  const sched = await d.t.post(
    '/api/events',
    {
      type: 'schedule:0 9 * * 1-5',
      timezone: 'Europe/Amsterdam',
      tool_calls: [{ tool: 'quests.create', args: { title: 'standup' } }],
    },
    tenant,
  );
  assert.is(sched.status, 201, sched.text);
  const fired = await d.t.post(
    '/api/events/trigger',
    { type: 'agent:premature_completion', content: { service: 'api' } },
    tenant,
  );
  assert.is(fired.status, 200, fired.text);
  return { u, eventId: fired.body.event.id as string };
}

if (browser) {
  for (const width of WIDTHS) {
    test(`every console page fits ${width} px: no sideways scroll, every action on screen`, async () => {
      const d = await startConsoleDaemon();
      const { page, errors, close } = await openPage(browser);
      try {
        await page.setViewport({ width, height: 800 });
        const { u, eventId } = await seed(d);
        await page.goto(d.consoleUrl + '#/signup');
        await waitForHeading(page, 'Sign up');
        await assertFits(page, width, 'signup');
        await page.goto(d.consoleUrl + '#/mail');
        await waitForHeading(page, 'Captured mail');
        await assertFits(page, width, 'mail');
        await page.goto(d.consoleUrl + '#/forgot');
        await waitForHeading(page, 'Reset your password');
        await assertFits(page, width, 'forgot');
        await page.goto(d.consoleUrl + '#/login');
        await waitForHeading(page, 'Log in');
        await assertFits(page, width, 'login');
        await page.goto(d.consoleUrl + '#/magic');
        await waitForHeading(page, 'Log in to svc');
        await assertFits(page, width, 'magic');
        await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
        await assertFits(page, width, 'profile');
        const pages: [string, string, string][] = [
          ['security', 'Security', 'Revoke all other sessions'],
          ['companies', 'Companies', 'Acme Laboratories International'],
          ['keys', 'Keys', 'ci-runner-with-a-long-name'],
          ['events/live', 'Events', '{"service":"api"}'],
          ['events/configured', 'Events', 'quests.create'],
          ['events/schedules', 'Events', 'Europe/Amsterdam'],
          [`trace/${eventId}`, 'Trace', 'fired quests.create'],
          ['failures', 'Failures', 'No failures'],
          ['apps', 'Connected apps', 'No connected apps'],
          ['audit', 'Audit', 'company.create'],
          // The pages a link from elsewhere opens: a terminal's pairing, an invitation, an app's sign-in.
          ['pair', 'Log in a terminal', 'Pairing code'],
          ['join', 'Join a Company', 'Invitation code'],
          ['oauth', 'Connect an app', 'This page needs an authorization request'],
        ];
        for (const [route, heading, text] of pages) {
          await page.goto(`${d.consoleUrl}#/${route}`);
          await waitForHeading(page, heading);
          await waitForText(page, text);
          await assertFits(page, width, route.startsWith('trace') ? 'trace' : route.replace('/', '-'));
        }
        assert.equal(errors, []);
      } finally {
        await close();
        await d.close();
      }
    });
  }

  test.run();
}
