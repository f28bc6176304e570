import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { companyOwner } from '../proof/lib/accounts.js';
import { PAST_THROTTLES, securityModes, type Remote } from './remote.js';

/**
 * SECURITY.md attack case 22, against a real daemon process over loopback, driven by a real OAuth
 * client library: no PKCE or `plain`, a wrong verifier, an unregistered redirect URI, a reused code,
 * a reused refresh token, a token for another resource, consent for another user's Company — each
 * refused, and a reused code or refresh token revokes what it issued (seen at /api/mcp).
 */
const REDIRECT_URI = 'http://127.0.0.1:33418/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack case 22 (OAuth) (${mode.name})`);
  let r: Remote;
  let as: oauth.AuthorizationServer;
  test.before(async () => {
    r = await mode.start();
    const issuer = new URL(r.daemon.url);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oauth2' }),
    );
  });
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const resource = () => `${r.daemon.url}/api/mcp`;
  const register = async () =>
    oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', client_name: 'case 22' },
        insecure,
      ),
    );
  const consent = (
    client: oauth.Client,
    auth: Record<string, string>,
    companyId: string,
    challenge: string,
    extra: Record<string, string> = {},
  ) =>
    r.app.post(
      '/api/oauth/authorize',
      {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's22',
        scope: 'events:read',
        resource: resource(),
        company_id: companyId,
        decision: 'allow',
        ...extra,
      },
      auth,
    );
  /** A code from the consent route, as the client's redirect carries it. */
  const codeFor = async (client: oauth.Client, auth: Record<string, string>, companyId: string, verifier: string) => {
    const res = await consent(client, auth, companyId, await oauth.calculatePKCECodeChallenge(verifier));
    assert.is(res.status, 200, res.text);
    return oauth.validateAuthResponse(as, client, new URL(res.body.redirect_to), 's22');
  };
  const redeem = (client: oauth.Client, params: URLSearchParams, verifier: string) =>
    oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, insecure);
  const refresh = (client: oauth.Client, token: string) =>
    oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, insecure);
  const whoami = (token: string) =>
    r.app.post(
      '/api/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
    );
  const errorOf = async (res: Response) => ((await res.json()) as { error?: string }).error;

  test('case 22: no PKCE or plain, and an unregistered redirect URI, at the authorization endpoint and the consent route', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'pkce22@example.com');
    const client = await register();
    const base = {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: 'events:read',
    };
    const authorize = (params: Record<string, string>) =>
      fetch(`${r.daemon.url}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: 'manual' });
    for (const params of [base, { ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }]) {
      const res = await authorize(params);
      assert.is(res.status, 303);
      const back = new URL(res.headers.get('location')!);
      assert.is(back.origin + back.pathname, REDIRECT_URI);
      assert.is(back.searchParams.get('error'), 'invalid_request');
    }
    const elsewhere = await authorize({
      ...base,
      redirect_uri: 'https://evil.example/cb',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    });
    assert.is(elsewhere.status, 400);
    assert.is(elsewhere.headers.get('location'), null, 'never redirected to an address the client did not register');

    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const plain = await consent(client, w.owner.auth, w.company.id, challenge, { code_challenge_method: 'plain' });
    assert.is(plain.status, 400);
    const unregistered = await consent(client, w.owner.auth, w.company.id, challenge, {
      redirect_uri: 'https://evil.example/cb',
    });
    assert.is(unregistered.status, 400);
    assert.not.ok(unregistered.body.redirect_to);
  });

  test('case 22: a wrong verifier; a reused code, which ends the tokens it issued', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'code22@example.com');
    const client = await register();
    const verifier = oauth.generateRandomCodeVerifier();
    const wrong = await redeem(client, await codeFor(client, w.owner.auth, w.company.id, verifier), 'x'.repeat(43));
    assert.is(wrong.status, 400);
    assert.is(await errorOf(wrong), 'invalid_grant');

    const params = await codeFor(client, w.owner.auth, w.company.id, verifier);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await redeem(client, params, verifier));
    assert.is((await whoami(tokens.access_token)).status, 200);
    const again = await redeem(client, params, verifier);
    assert.is(again.status, 400);
    assert.is(await errorOf(again), 'invalid_grant');
    assert.is((await whoami(tokens.access_token)).status, 401, 'the replayed code revoked its access token');
    assert.is((await refresh(client, tokens.refresh_token!)).status, 400, 'and its refresh token');
  });

  test('case 22: a reused refresh token ends the whole grant, the newest access token included', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'refresh22@example.com');
    const client = await register();
    const verifier = oauth.generateRandomCodeVerifier();
    const first = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await redeem(client, await codeFor(client, w.owner.auth, w.company.id, verifier), verifier),
    );
    const second = await oauth.processRefreshTokenResponse(as, client, await refresh(client, first.refresh_token!));
    assert.is((await whoami(second.access_token)).status, 200);
    const reused = await refresh(client, first.refresh_token!);
    assert.is(reused.status, 400);
    assert.is(await errorOf(reused), 'invalid_grant');
    const dead = await whoami(second.access_token);
    assert.is(dead.status, 401);
    assert.match(String(dead.headers['www-authenticate']), /error="invalid_token"/);
    assert.is((await refresh(client, second.refresh_token!)).status, 400);
  });

  test('case 22: a token for another resource is never issued', async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'resource22@example.com');
    const client = await register();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const other = await consent(client, w.owner.auth, w.company.id, challenge, {
      resource: 'https://elsewhere.example/api/mcp',
    });
    assert.is(other.status, 400);
    assert.is(other.body.code, 'oauth_invalid_target');
    // A code for the MCP endpoint, redeemed for another resource.
    const params = await codeFor(client, w.owner.auth, w.company.id, verifier);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, {
      ...insecure,
      additionalParameters: { resource: 'https://elsewhere.example/api/mcp' },
    });
    assert.is(res.status, 400);
    assert.match(String(await errorOf(res)), /^invalid_(target|grant)$/);
  });

  test("case 22: consent for another user's Company → 403, no code", async () => {
    const w = await companyOwner(r.daemon.url, r.dataDir, 'owner22@example.com');
    const thief = await companyOwner(r.daemon.url, r.dataDir, 'thief22@example.com');
    const client = await register();
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const res = await consent(client, thief.owner.auth, w.company.id, challenge);
    assert.is(res.status, 403);
    assert.is(res.body.code, 'company_forbidden');
    assert.not.ok(res.body.redirect_to);
    assert.is((await consent(client, {}, w.company.id, challenge)).status, 401, 'and none without a session');
  });

  test.run();
}
