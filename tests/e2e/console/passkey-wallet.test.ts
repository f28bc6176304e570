import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { getBytes, Wallet } from 'ethers';
import { createUser } from '../../helpers/accounts.js';
import { sharedBrowser } from '../../helpers/browser.js';
import {
  assertLabelled,
  fill,
  logInWithPassword,
  press,
  screenshot,
  waitForHeading,
  waitForText,
} from '../../helpers/console-page.js';
import { withConsole } from '../../helpers/console-test.js';
import { newInvite } from '../../helpers/signup.js';

const browser = await sharedBrowser();

if (browser) {
  test("passkey: register one on the security page through Chrome's virtual authenticator, log out, log in with it", () =>
    withConsole(browser, async (d, page) => {
      const cdp = await page.createCDPSession();
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const u = await createUser(d.t);
      await logInWithPassword(page, d.consoleUrl, u.user.email!, u.password);
      await page.goto(d.consoleUrl + '#/security');
      await waitForHeading(page, 'Security');
      await assertLabelled(page);
      await fill(page, 'Passkey name', 'test laptop');
      await press(page, 'Add a passkey');
      await waitForText(page, 'Remove');
      assert.is((await d.t.deps.stores.passkeys.listByUser(u.user.id)).length, 1);
      await screenshot(page, 'passkeys');

      await press(page, 'Log out');
      await waitForHeading(page, 'Log in');
      await press(page, 'Passkey');
      await press(page, 'Log in with a passkey');
      await waitForHeading(page, 'Profile');
      const sessions = (await d.t.get('/api/auth/sessions', u.auth)).body.sessions as { method: string[] }[];
      assert.ok(
        sessions.some((s) => s.method.join() === 'passkey'),
        JSON.stringify(sessions),
      );
    }));

  test('wallet: an injected EIP-1193 provider signing with a test key signs up (invite), then logs in', () =>
    withConsole(browser, async (d, page) => {
      const wallet = Wallet.createRandom();
      // The test's wallet extension: window.ethereum answers eth_requestAccounts and personal_sign,
      // signing in Node with the test key (what a real extension does after the user confirms).
      await page.exposeFunction('svcTestSign', (hex: string) => wallet.signMessage(getBytes(hex)));
      await page.evaluateOnNewDocument((address: string) => {
        const w = window as unknown as { ethereum: unknown; svcTestSign(hex: string): Promise<string> };
        w.ethereum = {
          request: async ({ method, params }: { method: string; params?: unknown[] }) => {
            if (method === 'eth_requestAccounts') return [address.toLowerCase()];
            if (method === 'personal_sign') return w.svcTestSign(params![0] as string);
            throw new Error(`unsupported ${method}`);
          },
        };
      }, wallet.address);
      await page.goto(d.consoleUrl);
      await waitForHeading(page, 'Log in');
      await press(page, 'Wallet');
      await assertLabelled(page);
      await fill(page, 'Invite code (first time only: creates the account)', await newInvite(d.t));
      await screenshot(page, 'login-wallet');
      await press(page, 'Sign in with wallet');
      await waitForHeading(page, 'Profile');
      await waitForText(page, wallet.address.toLowerCase());

      await press(page, 'Log out');
      await waitForHeading(page, 'Log in');
      await press(page, 'Wallet');
      await press(page, 'Sign in with wallet');
      await waitForHeading(page, 'Profile');
      const user = (await d.t.deps.stores.users.findById(
        (await d.t.deps.stores.wallets.findUserId(wallet.address.toLowerCase()))!,
      ))!;
      const live = await d.t.deps.stores.sessions.listActive(user.id, new Date(d.t.clock.now()).toISOString());
      assert.is(live.length, 1, 'log out ended the first session; the second login made this one');
      assert.ok(live.every((s) => s.method.join() === 'wallet'));
    }));

  test.run();
}
