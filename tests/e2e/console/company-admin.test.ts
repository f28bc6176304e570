import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon, type ConsoleDaemon } from '../../helpers/console-daemon.js';
import {
  assertLabelled,
  choose,
  fill,
  logInWithPassword,
  press,
  screenshot,
  waitForText,
} from '../../helpers/console-page.js';
import { assertFits } from '../../helpers/console-test.js';
import { invite, joinAs } from '../../helpers/team.js';

const browser = await sharedBrowser();

/** A desktop and a phone: the Companies page with its people must fit both without a sideways scroll. */
const WIDTHS = [1280, 390] as const;

/** Waits for the daemon to report what the page did; the bound only turns a hang into a failure. */
async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: never happened`);
}

async function seed(d: ConsoleDaemon) {
  const ana = await createUser(d.t, { tier: 'company' });
  const co = (await d.t.post('/api/companies', { name: 'Acme Laboratories International' }, ana.auth)).body;
  const ben = await joinAs(d.t, ana, co.id, 'member');
  const cat = await joinAs(d.t, ana, co.id, 'admin');
  await invite(d.t, ana, co.id, 'dan.with.a.rather.long.address@example.test', 'viewer');
  const roleOf = async (u: { user: { id: string } }) =>
    ((await d.t.get(`/api/companies/${co.id}/members`, ana.auth)).body.members ?? []).find(
      (m: { user_id: string }) => m.user_id === u.user.id,
    )?.role;
  return { ana, ben, cat, co, roleOf };
}

if (browser) {
  for (const width of WIDTHS) {
    test(`Companies page at ${width} px: role select, invitations, transfer, leave and delete, each confirmed`, async () => {
      const d = await startConsoleDaemon();
      const owner = await openPage(browser);
      const heir = await openPage(browser);
      try {
        const { ana, ben, cat, co, roleOf } = await seed(d);
        const dialogs: string[] = [];
        for (const { page } of [owner, heir])
          page.on('dialog', (dialog) => {
            dialogs.push(dialog.message());
            void dialog.accept();
          });
        await owner.page.setViewport({ width, height: 800 });
        await logInWithPassword(owner.page, d.consoleUrl, ana.user.email!, ana.password);
        await owner.page.goto(`${d.consoleUrl}#/companies`);
        await waitForText(owner.page, 'Pending invitations');
        await waitForText(owner.page, 'dan.with.a.rather.long.address@example.test');
        await assertFits(owner.page, width, 'companies (owner)');
        await screenshot(owner.page, `companies-team-${width}`);
        await assertLabelled(owner.page);

        await choose(owner.page, `Role of ${ben.user.email}`, 'viewer');
        await until('ben lowered to viewer', async () => (await roleOf(ben)) === 'viewer');

        await press(owner.page, 'Revoke the invitation to dan.with.a.rather.long.address@example.test');
        await waitForText(owner.page, 'No pending invitation.');
        assert.equal((await d.t.get(`/api/companies/${co.id}/invitations`, ana.auth)).body.invitations, []);

        await fill(owner.page, 'E-mail', 'eve@example.test');
        await choose(owner.page, 'Role', 'admin');
        await press(owner.page, 'Send invitation');
        await waitForText(owner.page, 'An invitation went to eve@example.test');
        const pending = (await d.t.get(`/api/companies/${co.id}/invitations`, ana.auth)).body.invitations;
        assert.equal(
          pending.map((i: { email: string; role: string }) => [i.email, i.role]),
          [['eve@example.test', 'admin']],
        );

        // Choosing owner hands the Company over: she becomes an admin, and may then leave.
        await choose(owner.page, `Role of ${cat.user.email}`, 'owner');
        await until('cat owns it', async () => (await roleOf(cat)) === 'owner');
        await waitForText(owner.page, 'Leave');
        await assertFits(owner.page, width, 'companies (admin)');
        await press(owner.page, 'Leave Acme Laboratories International');
        await until('ana left', async () => (await d.t.get('/api/companies', ana.auth)).body.companies.length === 0);

        await heir.page.setViewport({ width, height: 800 });
        await logInWithPassword(heir.page, d.consoleUrl, cat.user.email!, cat.password);
        await heir.page.goto(`${d.consoleUrl}#/companies`);
        await waitForText(heir.page, 'Delete Company');
        await assertFits(heir.page, width, 'companies (new owner)');
        await fill(heir.page, "Type the Company's name to confirm", 'Acme');
        await press(heir.page, 'Delete Company');
        await waitForText(heir.page, 'Type Acme Laboratories International to confirm.');
        assert.is(
          (await d.t.get(`/api/companies/${co.id}/members`, cat.auth)).status,
          200,
          'a wrong name deletes nothing',
        );
        await fill(heir.page, "Type the Company's name to confirm", 'Acme Laboratories International');
        await press(heir.page, 'Delete Company');
        await waitForText(heir.page, 'No Company yet: create one.');
        assert.is((await d.t.get(`/api/companies/${co.id}/members`, cat.auth)).status, 404);
        assert.equal((await d.t.get('/api/companies', ben.auth)).body.companies, []);

        assert.equal(dialogs.length, 3, 'revoke, transfer and leave each asked first');
        assert.equal([...owner.errors, ...heir.errors], []);
      } finally {
        await owner.close();
        await heir.close();
        await d.close();
      }
    });
  }
}

test.run();
