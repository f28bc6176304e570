import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon } from '../../helpers/console-daemon.js';
import {
  assertLabelled,
  choose,
  fill,
  logInWithPassword,
  press,
  waitForHeading,
  waitForText,
} from '../../helpers/console-page.js';

const browser = await sharedBrowser();

if (browser) {
  test("members: the owner invites from the Companies page; the invitee opens the e-mail's link and joins", async () => {
    const d = await startConsoleDaemon();
    const owner = await openPage(browser);
    const invitee = await openPage(browser);
    try {
      const ana = await createUser(d.t, { tier: 'company' });
      const ben = await createUser(d.t);
      await d.t.post('/api/companies', { name: 'Acme Labs' }, ana.auth);
      await logInWithPassword(owner.page, d.consoleUrl, ana.user.email!, ana.password);
      await owner.page.goto(d.consoleUrl + '#/companies');
      await waitForHeading(owner.page, 'Companies');
      // Her only Company is picked at login.
      await waitForText(owner.page, 'selected');
      await waitForText(owner.page, 'Members');
      await fill(owner.page, 'E-mail', ben.user.email!);
      await choose(owner.page, 'Role', 'viewer');
      await press(owner.page, 'Send invitation');
      await waitForText(owner.page, `An invitation went to ${ben.user.email}`);
      await assertLabelled(owner.page);

      const mail = (await d.t.deps.stores.outbox.list({ to: ben.user.email! })).at(-1)!;
      assert.match(mail.link!, /#\/join\//);
      await logInWithPassword(invitee.page, d.consoleUrl, ben.user.email!, ben.password);
      // The link's fragment, opened in the logged-in page (its session lives in the page's memory).
      const fragment = new URL(mail.link!).hash;
      await invitee.page.evaluate((h) => {
        location.hash = h;
      }, fragment);
      await waitForHeading(invitee.page, 'Join a Company');
      await press(invitee.page, 'Accept invitation');
      await waitForText(invitee.page, 'You joined Acme Labs as viewer.');

      // The session lives in the page's memory: move away and back without reloading.
      await owner.page.evaluate(() => {
        location.hash = '#/profile';
      });
      await waitForHeading(owner.page, 'Profile');
      await owner.page.evaluate(() => {
        location.hash = '#/companies';
      });
      await waitForText(owner.page, ben.user.email!);
      // Removing asks first: the dialog is answered yes.
      owner.page.on('dialog', (dialog) => void dialog.accept());
      await press(owner.page, `Remove ${ben.user.email}`);
      await owner.page.waitForFunction((e) => !document.body.innerText.includes(e), {}, ben.user.email!);
      assert.equal((await d.t.get('/api/companies', ben.auth)).body.companies, []);
      assert.equal([...owner.errors, ...invitee.errors], []);
    } finally {
      await owner.close();
      await invitee.close();
      await d.close();
    }
  });
}

test.run();
