import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { clientOptions, consent, discover, oauthServerOf, REDIRECT_URI, registerClient } from '../../helpers/oauth.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * The authorization code flow with PKCE, driven by a real OAuth client library (oauth4webapi)
 * against the in-process daemon: registration, consent, the code redeemed once, refresh tokens
 * rotated with reuse detected, revocation. On the memory store and in team mode (PostgreSQL),
 * where a second server over the same storage stands for a second daemon.
 */
for (const mode of testAppModes()) {
  const test = suite(`oauth code flow (${mode.name})`);
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let user: TestUser;
  let companyId: string;
  const none = oauth.None();

  test.before.each(async () => {
    t = await mode.open();
    as = await discover(t);
    client = await registerClient(t, as);
    user = await createUser(t, { tier: 'company' });
    companyId = (await createCompany(t, user)).id;
  });
  test.after.each(() => t.close());

  /** Consent as the page would give it; the code from the redirect, checked by the client library. */
  const codeFor = async (verifier: string, state = 'st-1') => {
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const res = await consent(t, { client, user, companyId, challenge, state });
    assert.is(res.status, 200, res.text);
    assert.is(res.headers['cache-control'], 'no-store');
    return oauth.validateAuthResponse(as, client, new URL(res.body.redirect_to), state);
  };
  const redeem = (params: URLSearchParams, verifier: string) =>
    oauth.authorizationCodeGrantRequest(as, client, none, params, REDIRECT_URI, verifier, clientOptions(t));

  test('the authorization endpoint checks the request, then sends the browser to the consent page', async () => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'events:read',
      state: 'xyz',
    });
    const res = await t.get(`/oauth/authorize?${query}`);
    assert.is(res.status, 303, res.text);
    const to = new URL(String(res.headers.location));
    assert.is(to.origin, t.deps.config.publicUrl);
    assert.is(to.hash.split('?')[0], '#/oauth/consent');
    const forwarded = new URLSearchParams(to.hash.split('?')[1]);
    assert.is(forwarded.get('client_id'), client.client_id);
    assert.is(forwarded.get('code_challenge'), challenge);
  });

  test('the authorization endpoint: no PKCE, plain, an unregistered redirect URI, an unknown client', async () => {
    const base = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'events:read',
    };
    const noPkce = await t.get(`/oauth/authorize?${new URLSearchParams(base)}`);
    assert.is(noPkce.status, 303);
    assert.is(new URL(String(noPkce.headers.location)).searchParams.get('error'), 'invalid_request');
    const plain = await t.get(
      `/oauth/authorize?${new URLSearchParams({ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })}`,
    );
    assert.is(new URL(String(plain.headers.location)).searchParams.get('error'), 'invalid_request');
    // Never redirected to an address the client did not register: an error page instead.
    const elsewhere = await t.get(
      `/oauth/authorize?${new URLSearchParams({ ...base, redirect_uri: 'https://evil.example/cb', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
    );
    assert.is(elsewhere.status, 400);
    assert.is(elsewhere.headers.location, undefined);
    const unknown = await t.get(`/oauth/authorize?${new URLSearchParams({ ...base, client_id: 'nobody' })}`);
    assert.is(unknown.status, 400);
    assert.is(unknown.headers.location, undefined);
    // svc's own page: self-contained (nothing loaded from elsewhere), not cached, not framed.
    assert.match(unknown.text, /This sign-in request cannot continue/);
    assert.match(String(unknown.headers['content-security-policy']), /^default-src 'none'/);
    assert.is(unknown.headers['cache-control'], 'no-store');
  });

  test('code + PKCE → tokens bound to the MCP resource, with the granted scope and a refresh token', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const params = await codeFor(verifier);
    assert.is(params.get('iss'), t.deps.config.publicUrl);
    const res = await redeem(params, verifier);
    assert.is(res.headers.get('cache-control'), 'no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    assert.is(tokens.token_type.toLowerCase(), 'bearer');
    assert.is(tokens.scope, 'events:read');
    assert.ok(tokens.expires_in! <= 3600);
    assert.type(tokens.refresh_token, 'string');
    // Another daemon on the same storage resolves it to the user and the Company they chose.
    const principal = await oauthServerOf(t).resolveAccessToken(tokens.access_token);
    assert.equal(principal && { ...principal, grantId: '', company: principal.company.id }, {
      userId: user.user.id,
      companyId,
      clientId: client.client_id,
      grantId: '',
      scopes: ['events:read'],
      company: companyId,
      role: 'owner',
    });
  });

  test('refusals at the token endpoint: wrong verifier, code reused (which ends its tokens), code expired', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const wrong = await redeem(await codeFor(verifier), oauth.generateRandomCodeVerifier());
    await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, wrong));

    const params = await codeFor(verifier);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await redeem(params, verifier));
    await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, await redeem(params, verifier)));
    assert.is(await oauthServerOf(t).resolveAccessToken(tokens.access_token), null, 'a replayed code ends its grant');

    const late = await codeFor(verifier);
    t.clock.advance(61_000);
    await assertGrantError(oauth.processAuthorizationCodeResponse(as, client, await redeem(late, verifier)));
  });

  test('the consent route: no session, a Company of someone else, an unregistered redirect URI, deny', async () => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const anon = await consent(t, { client, user: { ...user, auth: {} }, companyId, challenge });
    assert.is(anon.status, 401);
    const other = await createUser(t, { tier: 'company' });
    const theirs = await createCompany(t, other);
    const foreign = await consent(t, { client, user, companyId: theirs.id, challenge });
    assert.is(foreign.status, 403);
    assert.not.ok(foreign.body.redirect_to);
    const elsewhere = await consent(t, {
      client,
      user,
      companyId,
      challenge,
      extra: { redirect_uri: 'https://evil.example/cb' },
    });
    assert.is(elsewhere.status, 400);
    const plain = await consent(t, { client, user, companyId, challenge, extra: { code_challenge_method: 'plain' } });
    assert.is(plain.status, 400);
    const otherResource = await consent(t, {
      client,
      user,
      companyId,
      challenge,
      extra: { resource: 'https://elsewhere.example/api' },
    });
    assert.is(otherResource.status, 400);
    const denied = await consent(t, { client, user, companyId, challenge, decision: 'deny', state: 's9' });
    const back = new URL(denied.body.redirect_to);
    assert.is(back.searchParams.get('error'), 'access_denied');
    assert.is(back.searchParams.get('state'), 's9');
    assert.is(back.searchParams.get('iss'), t.deps.config.publicUrl);
    assert.is(back.searchParams.get('code'), null);
    // Saying no to a request the server would refuse anyway still takes the user back to the client.
    for (const extra of [{ scope: 'no:such' }, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const refused = await consent(t, { client, user, companyId, challenge, decision: 'deny', extra });
      assert.is(refused.status, 200, refused.text);
      assert.is(new URL(refused.body.redirect_to).searchParams.get('error'), 'access_denied');
    }
    const stranger = await consent(t, { client, user, companyId: theirs.id, challenge, decision: 'deny' });
    assert.is(new URL(stranger.body.redirect_to).searchParams.get('code'), null);
  });

  test("the consent page's look-up of a client: its id and name, whether the redirect URI is its own, nothing else", async () => {
    const path = `/api/oauth/clients/${encodeURIComponent(client.client_id)}`;
    assert.is((await t.get(path)).status, 401, 'behind a session');
    const res = await t.get(`${path}?redirect_uri=${encodeURIComponent(REDIRECT_URI)}`, user.auth);
    assert.is(res.status, 200, res.text);
    assert.equal(res.body, { client_id: client.client_id, client_name: 'Test MCP client', redirect_uri_allowed: true });
    const elsewhere = await t.get(`${path}?redirect_uri=${encodeURIComponent('https://evil.example/cb')}`, user.auth);
    assert.is(elsewhere.body.redirect_uri_allowed, false);
    assert.equal(Object.keys((await t.get(path, user.auth)).body).sort(), ['client_id', 'client_name']);
    const unknown = await t.get('/api/oauth/clients/nobody', user.auth);
    assert.is(unknown.status, 404);
    assert.is(unknown.body.code, 'oauth_invalid_client');
  });

  test('refresh tokens rotate; presenting a rotated one ends the grant and its access tokens', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await redeem(await codeFor(verifier), verifier),
    );
    const refresh = (token: string) => oauth.refreshTokenGrantRequest(as, client, none, token, clientOptions(t));
    const second = await oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!));
    assert.type(second.refresh_token, 'string');
    assert.is.not(second.refresh_token, first.refresh_token);
    assert.ok(await oauthServerOf(t).resolveAccessToken(second.access_token));
    await assertGrantError(oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!)));
    assert.is(await oauthServerOf(t).resolveAccessToken(second.access_token), null);
    await assertGrantError(oauth.processRefreshTokenResponse(as, client, await refresh(second.refresh_token!)));
  });

  test('revocation: an access token ends on its next use; a refresh token ends with its grant', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await redeem(await codeFor(verifier), verifier),
    );
    const revoke = async (token: string) =>
      oauth.processRevocationResponse(await oauth.revocationRequest(as, client, none, token, clientOptions(t)));
    await revoke(tokens.access_token);
    assert.is(await oauthServerOf(t).resolveAccessToken(tokens.access_token), null);

    const again = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await redeem(await codeFor(verifier), verifier),
    );
    await revoke(again.refresh_token!);
    assert.is(await oauthServerOf(t).resolveAccessToken(again.access_token), null);
    const refused = await oauth.refreshTokenGrantRequest(as, client, none, again.refresh_token!, clientOptions(t));
    await assertGrantError(oauth.processRefreshTokenResponse(as, client, refused));
  });

  test.run();
}

async function assertGrantError(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, oauth.ResponseBodyError);
    assert.is((err as oauth.ResponseBodyError).error, 'invalid_grant');
    return;
  }
  assert.unreachable('the token endpoint accepted it');
}
