import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { openPage, sharedBrowser } from '../../helpers/browser.js';
import { startConsoleDaemon, type ConsoleDaemon } from '../../helpers/console-daemon.js';
import { assertLabelled, fill, press, screenshot, waitForHeading, waitForText } from '../../helpers/console-page.js';
import { createCompany } from '../../helpers/keys.js';
import { callToolWithToken, clientOptions, discover, registerClient } from '../../helpers/oauth.js';
import { codeNow, enableTotp } from '../../helpers/totp.js';

const browser = await sharedBrowser();

/** The MCP client's redirect URI: a loopback server that hands over the first request it gets. */
async function callbackServer() {
  let arrived: (url: URL) => void = () => undefined;
  const reached = new Promise<URL>((r) => (arrived = r));
  const server = createServer((req, res) => {
    arrived(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.end('signed in; you can close this tab');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    uri,
    /** The redirect as the browser made it, with the client's own origin and path. */
    reached: reached.then((u) => new URL(`${uri}${u.search}`)),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** An authorization request as an MCP client opens it in the browser. */
async function authorizationUrl(d: ConsoleDaemon, client: oauth.Client, redirectUri: string, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'st-e2e',
    scope,
    resource: `${d.url}/api/mcp`,
  });
  return { url: `${d.url}/oauth/authorize?${query}`, verifier };
}

if (browser) {
  test('an MCP client signs in: consent page, login with password + TOTP, a Company picked, scopes narrowed, allowed; then revoked from the Apps page', async () => {
    const d = await startConsoleDaemon();
    const cb = await callbackServer();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      const { secret } = await enableTotp(d.t, u);
      await createCompany(d.t, u, 'Acme Labs');
      const side = await createCompany(d.t, u, 'Side Project');
      const as = await discover(d.t);
      const client = await registerClient(d.t, as, { client_name: 'Claude Code', redirect_uris: [cb.uri] });
      const { url, verifier } = await authorizationUrl(d, client, cb.uri, 'events:read quests:read');

      // The authorization endpoint checks the request and sends the browser to the console's page.
      await page.goto(url);
      await waitForHeading(page, 'Log in to connect an app');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForText(page, 'Enter the code from your authenticator app');
      await fill(page, 'Authenticator code', codeNow(d.t, secret));
      await press(page, 'Verify');

      await waitForHeading(page, 'Connect Claude Code');
      await assertLabelled(page);
      const shown = await page.evaluate(() => document.body.innerText);
      assert.ok(shown.includes(`It will return to\n${new URL(cb.uri).host}`), shown);
      assert.ok(shown.includes(client.client_id), 'the client id is shown beside its claimed name');
      assert.ok(shown.includes('events:read') && shown.includes('quests:read'));
      await page.select('#consent-company', side.id);
      await page.click('[id="scope-quests:read"]');
      await screenshot(page, 'oauth-consent');
      await press(page, 'Allow');

      const back = await cb.reached;
      const params = oauth.validateAuthResponse(as, client, back, 'st-e2e');
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          cb.uri,
          verifier,
          clientOptions(d.t),
        ),
      );
      assert.is(tokens.scope, 'events:read', 'the scopes the user left ticked');
      const who = await callToolWithToken(d.t, tokens.access_token, 'whoami');
      assert.is(who.status, 200, who.text);
      assert.equal(who.body.result.structuredContent.company, { id: side.id, name: 'Side Project' });

      // The Apps page lists the connection; Revoke ends its tokens.
      await page.goto(`${d.url}/#/apps`);
      await waitForHeading(page, 'Log in');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      d.t.clock.advance(30_000);
      await waitForText(page, 'Enter the code from your authenticator app');
      await fill(page, 'Authenticator code', codeNow(d.t, secret));
      await press(page, 'Verify');
      await press(page, 'Apps');
      await waitForHeading(page, 'Connected apps');
      await waitForText(page, 'Side Project');
      await assertLabelled(page);
      await screenshot(page, 'apps');
      await press(page, 'Revoke Claude Code for Side Project');
      await waitForText(page, 'No connected apps.');
      assert.is((await callToolWithToken(d.t, tokens.access_token, 'whoami')).status, 401);
      assert.equal(errors, []);
    } finally {
      await close();
      await cb.close();
      await d.close();
    }
  });

  test('deny sends the browser back with access_denied; a request naming an unregistered address offers nothing', async () => {
    const d = await startConsoleDaemon();
    const cb = await callbackServer();
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await createUser(d.t, { tier: 'company' });
      await createCompany(d.t, u, 'Acme Labs');
      const as = await discover(d.t);
      const client = await registerClient(d.t, as, { client_name: 'Some Tool', redirect_uris: [cb.uri] });

      // A consent link made by hand, naming an address the client never registered: no Allow, no redirect.
      const forged = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: 'https://evil.example/cb',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        state: 's',
      });
      await page.goto(`${d.url}/#/oauth/consent?${forged}`);
      await waitForHeading(page, 'Log in to connect an app');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForText(page, 'This sign-in request cannot continue');
      assert.not.ok(
        await page.evaluate(() => [...document.querySelectorAll('button')].some((b) => b.textContent === 'Allow')),
      );

      // The real request (a page load: the console holds its login in memory only, so log in again).
      const { url } = await authorizationUrl(d, client, cb.uri, 'events:read');
      await page.goto(url);
      await waitForHeading(page, 'Log in to connect an app');
      await fill(page, 'E-mail', u.user.email!);
      await fill(page, 'Password', u.password);
      await press(page, 'Log in');
      await waitForHeading(page, 'Connect Some Tool');
      await press(page, 'Deny');
      const back = await cb.reached;
      assert.is(back.searchParams.get('error'), 'access_denied');
      assert.is(back.searchParams.get('state'), 'st-e2e');
      assert.is(back.searchParams.get('iss'), d.url);
      assert.is(back.searchParams.get('code'), null);
      assert.equal((await d.t.get('/api/oauth/grants', u.auth)).body.grants, []);
      assert.equal(errors, []);
    } finally {
      await close();
      await cb.close();
      await d.close();
    }
  });
}

test.run();
