import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { clientOptions, consent, discover, REDIRECT_URI } from '../../helpers/oauth.js';
import { serveHttps, testCa, type HttpsTestServer } from '../../helpers/test-ca.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/test-app.js';

/**
 * Client ID metadata documents: a client_id that is an https URL is the client's registration,
 * fetched from that URL (here a server with the test's own CA, trusted by the daemon through its
 * deps only). Each refusal the draft and svc ask for is checked at the authorization endpoint (an
 * error page, never a redirect) or at the consent route (a 400), and caching follows the
 * document's Cache-Control against svc's clock.
 */
const ca = testCa();
const test = suite('oauth client metadata documents');

interface Served {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw text instead of `body` as JSON. */
  text?: string;
}

let server: HttpsTestServer;
let documents: Map<string, (origin: string) => Served>;
let t: TestApp;
let user: TestUser;
let companyId: string;

const open = async (options: TestAppOptions = {}, fetchLimit: { timeoutMs?: number } = {}) => {
  t = await createTestApp({ oauthFetch: { extraCaCerts: [ca!.caPem], ...fetchLimit }, ...options });
  user = await createUser(t, { tier: 'company' });
  companyId = (await createCompany(t, user)).id;
};

test.before.each(async () => {
  documents = new Map();
  server = await serveHttps(ca!, (req, res, origin) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    const served = documents.get(path)?.(origin) ?? { status: 404, body: { error: 'not found' } };
    res.writeHead(served.status ?? 200, { 'content-type': 'application/json', ...served.headers });
    res.end(served.text ?? JSON.stringify(served.body));
  });
  await open();
});
test.after.each(async () => {
  await t.close();
  await server.close();
});

/** A well-formed document for `path`, naming itself; `extra` replaces or adds fields. */
const serve = (path: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  documents.set(path, (origin) => ({
    headers,
    body: {
      client_id: `${origin}${path}`,
      client_name: 'Document client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...extra,
    },
  }));
  return `${server.origin}${path}`;
};

const authorize = async (clientId: string, redirectUri = REDIRECT_URI) => {
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'events:read',
    state: 'st',
  });
  return t.get(`/oauth/authorize?${query}`);
};

/** The authorization endpoint's refusal: an error page naming `error`, and no redirect anywhere. */
const assertErrorPage = (res: Awaited<ReturnType<typeof authorize>>, error: string, why: string) => {
  assert.ok(res.status >= 400 && res.status < 500, `${why}: ${res.status} ${res.text}`);
  assert.is(res.headers.location, undefined, why);
  assert.match(res.text, error, why);
};

if (!ca) test.skip('client metadata documents (no test CA)', () => {});
else {
  test('discovery announces metadata documents', async () => {
    const as = await discover(t);
    assert.is(as.client_id_metadata_document_supported, true);
  });

  test('a document client signs in: authorization, consent, token; the document is fetched once', async () => {
    const clientId = serve('/agent.json');
    const first = await authorize(clientId);
    assert.is(first.status, 303, first.text);
    assert.match(String(first.headers.location), '#/oauth/consent?');

    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const answer = await consent(t, { client, user, companyId, challenge, state: 's' });
    assert.is(answer.status, 200, answer.text);
    const as = await discover(t);
    const params = oauth.validateAuthResponse(as, client, new URL(answer.body.redirect_to), 's');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        REDIRECT_URI,
        verifier,
        clientOptions(t),
      ),
    );
    assert.type(tokens.access_token, 'string');
    assert.type(tokens.refresh_token, 'string');
    assert.is(server.hits.get('/agent.json'), 1, 'authorization, consent and token read the cached document');
  });

  test('the cache follows max-age (bounded below by a minute) against svc’s clock; no-store is not kept', async () => {
    const kept = serve('/kept.json', {}, { 'cache-control': 'public, max-age=600' });
    assert.is((await authorize(kept)).status, 303);
    t.clock.advance(599_000);
    assert.is((await authorize(kept)).status, 303);
    assert.is(server.hits.get('/kept.json'), 1, 'fresh for 600 s');
    t.clock.advance(2_000);
    assert.is((await authorize(kept)).status, 303);
    assert.is(server.hits.get('/kept.json'), 2, 'fetched again once stale');

    const uncached = serve('/uncached.json', {}, { 'cache-control': 'no-store' });
    await authorize(uncached);
    await authorize(uncached);
    assert.is(server.hits.get('/uncached.json'), 2);
  });

  test('its redirect_uris are the only ones allowed', async () => {
    const clientId = serve('/narrow.json');
    assertErrorPage(await authorize(clientId, 'https://elsewhere.example/cb'), 'invalid_redirect_uri', 'authorize');
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const res = await consent(t, {
      client: { client_id: clientId },
      user,
      companyId,
      challenge,
      extra: { redirect_uri: 'https://elsewhere.example/cb' },
    });
    assert.is(res.status, 400, res.text);
    assert.is(res.body.code, 'oauth_invalid_redirect_uri');
  });

  test('refusals: another client_id, a secret, a secret-based or key-based method, no redirect_uris, not JSON', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['/other-id.json', { client_id: 'https://someone-else.example/client.json' }, 'invalid_client_metadata'],
      ['/secret.json', { client_secret: 'shh' }, 'invalid_client_metadata'],
      ['/basic.json', { token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [
        '/jwt.json',
        { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://example.com/jwks' },
        'invalid_client',
      ],
      ['/no-redirects.json', { redirect_uris: undefined }, 'invalid_redirect_uri'],
    ];
    for (const [path, extra, error] of cases) {
      const clientId = serve(path, extra);
      assertErrorPage(await authorize(clientId), error, path);
      const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
      const res = await consent(t, { client: { client_id: clientId }, user, companyId, challenge });
      assert.is(res.status, 400, `${path}: ${res.text}`);
      assert.is(res.body.code, 'oauth_invalid_client', path);
    }
    documents.set('/not-json.json', () => ({ text: '<html>hello</html>' }));
    assertErrorPage(await authorize(`${server.origin}/not-json.json`), 'invalid_client', 'not JSON');
  });

  test('refusals: larger than 64 KB, a redirect, an error status, no path', async () => {
    const big = serve('/big.json', { client_name: 'x'.repeat(65 * 1024) });
    assertErrorPage(await authorize(big), 'invalid_client', 'too large');
    documents.set('/moved.json', (origin) => ({
      status: 302,
      headers: { location: `${origin}/agent.json` },
      body: {},
    }));
    serve('/agent.json');
    assertErrorPage(await authorize(`${server.origin}/moved.json`), 'invalid_client', 'redirect');
    assert.is(server.hits.get('/agent.json'), undefined, 'the redirect was not followed');
    assertErrorPage(await authorize(`${server.origin}/missing.json`), 'invalid_client', '404');
    assertErrorPage(await authorize(`${server.origin}/`), 'invalid_client', 'no path');
    assert.is(server.hits.get('/'), undefined, 'a URL without a path is not fetched');
  });

  test('refusals: nothing listening, a server that never answers (a short test limit)', async () => {
    const closed = await unusedPort();
    assertErrorPage(await authorize(`https://localhost:${closed}/client.json`), 'invalid_client', 'refused');

    // A short limit of the test's own, so the silent server costs a fraction of a second.
    await t.close();
    await open({}, { timeoutMs: 300 });
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const port = (silent.address() as AddressInfo).port;
      assertErrorPage(await authorize(`https://localhost:${port}/client.json`), 'invalid_client', 'silent');
      assert.ok(sockets.length >= 1, 'the daemon did connect, and gave up');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  test('a failed fetch is remembered for a minute: the URL is not fetched again on every request', async () => {
    documents.set('/flaky.json', () => ({ status: 500, body: {} }));
    const clientId = `${server.origin}/flaky.json`;
    assertErrorPage(await authorize(clientId), 'invalid_client', 'first');
    serve('/flaky.json');
    assertErrorPage(await authorize(clientId), 'invalid_client', 'still remembered');
    assert.is(server.hits.get('/flaky.json'), 1);
    t.clock.advance(61_000);
    assert.is((await authorize(clientId)).status, 303);
  });

  test('a daemon that listens beyond loopback refuses documents on private addresses', async () => {
    await t.close();
    await open({ config: { host: '0.0.0.0' } });
    const clientId = serve('/agent.json');
    assertErrorPage(await authorize(clientId), 'invalid_client', 'localhost → 127.0.0.1');
    assertErrorPage(
      await authorize(clientId.replace('localhost', '127.0.0.1')),
      'invalid_client',
      'an address literal',
    );
    assert.is(server.hits.get('/agent.json'), undefined, 'never connected');
  });

  test('so does a daemon on loopback published at another address (behind a tunnel or a proxy)', async () => {
    await t.close();
    await open({ config: { host: '127.0.0.1', publicUrl: 'https://svc.example.com' } });
    assertErrorPage(await authorize(serve('/agent.json')), 'invalid_client', 'published');
    assert.is(server.hits.get('/agent.json'), undefined, 'never connected');
  });
}

async function unusedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

test.run();
