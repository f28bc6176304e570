import * as oauth from 'oauth4webapi';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import {
  clientOptions,
  consent,
  discover,
  oauthServerOf,
  REDIRECT_URI,
  registerClient,
  signIn,
} from '../../helpers/oauth.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp } from '../../helpers/test-app.js';
import { serveHttps, testCa } from '../../helpers/test-ca.js';

/**
 * Team mode: two daemons on one database behind one balancer. Each step of a client's life lands
 * on whichever daemon the balancer picks, so registration, codes, grants and refresh families
 * must be the database's, not a daemon's.
 */
const cluster = testPostgres();
if (cluster)
  test('a client registered on A, consented on A, redeemed on B, refreshed on A, replayed on B', async () => {
    const database = await (await cluster()).createDatabase();
    const a = await createTestApp({ database });
    const b = await createTestApp({ database });
    try {
      const none = oauth.None();
      const asA = await discover(a);
      const asB = await discover(b);
      const client = await registerClient(a, asA);
      const user = await createUser(a, { tier: 'company' });
      const companyId = (await createCompany(a, user)).id;
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = await oauth.calculatePKCECodeChallenge(verifier);
      const answer = await consent(a, { client, user, companyId, challenge, state: 's' });
      const params = oauth.validateAuthResponse(asA, client, new URL(answer.body.redirect_to), 's');

      const tokens = await oauth.processAuthorizationCodeResponse(
        asB,
        client,
        await oauth.authorizationCodeGrantRequest(asB, client, none, params, REDIRECT_URI, verifier, clientOptions(b)),
      );
      assert.is((await oauthServerOf(a).resolveAccessToken(tokens.access_token))?.companyId, companyId);

      const refreshed = await oauth.processRefreshTokenResponse(
        asA,
        client,
        await oauth.refreshTokenGrantRequest(asA, client, none, tokens.refresh_token!, clientOptions(a)),
      );
      const replay = await oauth.refreshTokenGrantRequest(asB, client, none, tokens.refresh_token!, clientOptions(b));
      assert.is(replay.status, 400);
      assert.is((await replay.json()).error, 'invalid_grant');
      assert.is(
        await oauthServerOf(a).resolveAccessToken(refreshed.access_token),
        null,
        'the replay on B ended the grant for A',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

if (cluster)
  test('a token revoked on A is refused at /api/mcp on B on its next request; a grant replayed on B ends it on A', async () => {
    const database = await (await cluster()).createDatabase();
    const a = await createTestApp({ database });
    const b = await createTestApp({ database });
    try {
      const asA = await discover(a);
      const client = await registerClient(a, asA);
      const user = await createUser(a, { tier: 'company' });
      const companyId = (await createCompany(a, user)).id;
      const whoami = (t: typeof a, token: string) =>
        t.request({
          method: 'POST',
          url: '/api/mcp',
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami' } }),
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-protocol-version': '2025-11-25',
          },
        });

      const tokens = await signIn(a, asA, client, { user, companyId });
      assert.is((await whoami(b, tokens.access_token)).status, 200);
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(asA, client, oauth.None(), tokens.access_token, clientOptions(a)),
      );
      const refused = await whoami(b, tokens.access_token);
      assert.is(refused.status, 401);
      assert.match(String(refused.headers['www-authenticate']), /error="invalid_token"/);

      const again = await signIn(a, asA, client, { user, companyId });
      const asB = await discover(b);
      const refreshed = await oauth.processRefreshTokenResponse(
        asB,
        client,
        await oauth.refreshTokenGrantRequest(asB, client, oauth.None(), again.refresh_token!, clientOptions(b)),
      );
      assert.is((await whoami(a, refreshed.access_token)).status, 200);
      const replay = await oauth.refreshTokenGrantRequest(
        asB,
        client,
        oauth.None(),
        again.refresh_token!,
        clientOptions(b),
      );
      assert.is(replay.status, 400);
      assert.is((await whoami(a, refreshed.access_token)).status, 401);
    } finally {
      await a.close();
      await b.close();
    }
  });

const ca = testCa();
if (cluster && ca)
  test('a client metadata document fetched by A is read from the shared cache by B', async () => {
    const database = await (await cluster()).createDatabase();
    const oauthFetch = { extraCaCerts: [ca.caPem] };
    const a = await createTestApp({ database, oauthFetch });
    const b = await createTestApp({ database, oauthFetch });
    const server = await serveHttps(ca, (_req, res, origin) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(
        JSON.stringify({
          client_id: `${origin}/client.json`,
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
    try {
      const authorize = (t: typeof a) =>
        t.get(
          `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: `${server.origin}/client.json`, redirect_uri: REDIRECT_URI, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })}`,
        );
      assert.is((await authorize(a)).status, 303);
      assert.is((await authorize(b)).status, 303);
      assert.is(server.hits.get('/client.json'), 1, 'B used the document A fetched');
    } finally {
      await server.close();
      await a.close();
      await b.close();
    }
  });

test.run();
