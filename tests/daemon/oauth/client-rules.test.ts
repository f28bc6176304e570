import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { clientOptions, consent, discover, REDIRECT_URI, registerClient } from '../../helpers/oauth.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * Two rules about registered clients: loopback redirect URIs match on any port (RFC 8252 §7.3)
 * for the web clients most MCP clients register as, and a registered client unused for a while
 * (30 days by default) is forgotten. On the memory store and on PostgreSQL.
 */
const DAY = 24 * 3600_000;

for (const mode of testAppModes()) {
  const test = suite(`oauth client rules (${mode.name})`);
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let user: TestUser;
  let companyId: string;

  test.before.each(async () => {
    t = await mode.open();
    as = await discover(t);
    user = await createUser(t, { tier: 'company' });
    companyId = (await createCompany(t, user)).id;
  });
  test.after.each(() => t.close());

  const authorize = async (clientId: string, redirectUri: string) => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
    });
    return t.get(`/oauth/authorize?${query}`);
  };
  const accepted = (res: { status: number; headers: Record<string, unknown> }) =>
    res.status === 303 && String(res.headers.location).includes('#/oauth/consent?');

  test('loopback redirect URIs of a web client match on any port, and nothing else loosens', async () => {
    const client = await registerClient(t, as, {
      redirect_uris: [
        'http://127.0.0.1:33418/callback',
        'http://localhost/cb',
        'http://[::1]:1/cb',
        'https://app.example/cb',
      ],
    });
    assert.is(client.application_type ?? 'web', 'web');
    for (const uri of [
      'http://127.0.0.1:33418/callback',
      'http://127.0.0.1:51234/callback',
      'http://127.0.0.1/callback',
      'http://localhost:8080/cb',
      'http://[::1]:45678/cb',
      'https://app.example/cb',
    ])
      assert.ok(accepted(await authorize(client.client_id, uri)), uri);
    for (const uri of [
      'http://127.0.0.1:51234/other', // another path
      'http://127.0.0.1:51234/callback?x=1', // another query
      'http://localhost:51234/callback', // another loopback host than registered
      'https://127.0.0.1:51234/callback', // another scheme
      'http://user@127.0.0.1:51234/callback',
      'https://app.example:8443/cb', // not loopback: exact match only
      'http://127.0.0.2:33418/callback',
    ]) {
      const res = await authorize(client.client_id, uri);
      assert.is(res.status, 400, uri);
      assert.is(res.headers.location, undefined, uri);
    }
  });

  test('a code sent to another loopback port is redeemed with that redirect URI, and only with it', async () => {
    const client = await registerClient(t, as, { redirect_uris: ['http://127.0.0.1/callback'] });
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const res = await consent(t, {
      client,
      user,
      companyId,
      challenge,
      state: 's',
      extra: { redirect_uri: redirectUri },
    });
    assert.is(res.status, 200, res.text);
    assert.ok(String(res.body.redirect_to).startsWith(`${redirectUri}?`));
    const params = oauth.validateAuthResponse(as, client, new URL(res.body.redirect_to), 's');
    const wrong = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      'http://127.0.0.1:49153/callback',
      verifier,
      clientOptions(t),
    );
    assert.is(wrong.status, 400);
    assert.is((await wrong.json()).error, 'invalid_grant');

    const again = await consent(t, {
      client,
      user,
      companyId,
      challenge,
      state: 's',
      extra: { redirect_uri: redirectUri },
    });
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(as, client, new URL(again.body.redirect_to), 's'),
        redirectUri,
        verifier,
        clientOptions(t),
      ),
    );
    assert.type(tokens.access_token, 'string');
  });

  test('a registered client lives 30 days past its last use, then is forgotten', async () => {
    const client = await registerClient(t, as);
    const uri = REDIRECT_URI;
    t.clock.advance(29 * DAY);
    assert.ok(accepted(await authorize(client.client_id, uri)), 'used on day 29');
    t.clock.advance(29 * DAY);
    assert.ok(accepted(await authorize(client.client_id, uri)), 'day 58: 29 days after its last use');
    t.clock.advance(30 * DAY + 1000);
    const res = await authorize(client.client_id, uri);
    assert.is(res.status, 400);
    assert.match(res.text, 'invalid_client');
    const token = await t.request({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'x',
        client_id: client.client_id,
      }).toString(),
    });
    assert.is(token.body?.error, 'invalid_client', token.text);
  });
  test.run();
}

const configured = suite('oauth client idle time (configured)');
configured('SVC_OAUTH_CLIENT_IDLE shortens it', async () => {
  const [memory] = testAppModes();
  const t = await memory!.open({ config: { oauthClientIdleSeconds: 3600 } });
  try {
    const as = await discover(t);
    const client = await registerClient(t, as);
    t.clock.advance(3601_000);
    const res = await t.get(
      `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
    );
    assert.is(res.status, 400);
    assert.match(res.text, 'invalid_client');
  } finally {
    await t.close();
  }
});
configured.run();
