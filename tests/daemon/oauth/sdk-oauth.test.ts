import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedV2,
  discoverAuthorizationServerMetadata as discoverV2,
  refreshAuthorization as refreshV2,
} from '@modelcontextprotocol/client';
import {
  UnauthorizedError as UnauthorizedV1,
  discoverAuthorizationServerMetadata as discoverV1,
  refreshAuthorization as refreshV1,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { consentAt, serveOAuthDaemon, TestOAuthProvider } from '../../helpers/mcp-oauth.js';
import { serveHttps, testCa } from '../../helpers/test-ca.js';

/**
 * The whole sign-in of an MCP client, driven by the official SDKs' own OAuth support (v1
 * @modelcontextprotocol/sdk, v2 @modelcontextprotocol/client) over HTTP against the daemon on a
 * real port: the 401 and its resource metadata, authorization-server discovery, the client made
 * known by dynamic registration or by a metadata document served over https (the test's own CA,
 * trusted by the daemon through its deps), PKCE, consent through `POST /api/oauth/authorize` with a
 * logged-in user, the token, tools/list with it, a refresh when the access token has expired, the
 * spent refresh token presented again (the grant ends), and revocation.
 */
const ca = testCa();
const test = suite('oauth: the official SDK clients sign in');
const REDIRECT = 'http://127.0.0.1:45831/callback';
const HOUR = 3600_000;

interface Connected {
  listTools(): Promise<{ tools: unknown[] }>;
  close(): Promise<void>;
}
interface Sdk {
  name: string;
  /** Connects, or throws the SDK's UnauthorizedError after sending the "browser" to the authorization URL. */
  connect(url: string, provider: TestOAuthProvider): Promise<{ client?: Connected; finish(back: URL): Promise<void> }>;
  isUnauthorized(err: unknown): boolean;
  refresh(issuer: string, provider: TestOAuthProvider, refreshToken: string, resource: string): Promise<unknown>;
}

const SDKS: Sdk[] = [
  {
    name: 'v1',
    async connect(url, provider) {
      const transport = new TransportV1(new URL(`${url}/api/mcp`), { authProvider: provider as never });
      const client = new ClientV1({ name: 'oauth-v1', version: '1.0.0' });
      const finish = (back: URL) => transport.finishAuth(String(back.searchParams.get('code')));
      try {
        await client.connect(transport);
        return { client, finish };
      } catch (err) {
        if (!(err instanceof UnauthorizedV1)) throw err;
        return { finish };
      }
    },
    isUnauthorized: (err) => err instanceof UnauthorizedV1 || /401|Unauthorized/i.test(String(err)),
    async refresh(issuer, provider, refreshToken, resource) {
      const metadata = await discoverV1(issuer);
      return refreshV1(issuer, {
        metadata,
        clientInformation: { client_id: provider.clientId },
        refreshToken,
        resource: new URL(resource),
      });
    },
  },
  {
    name: 'v2',
    async connect(url, provider) {
      const transport = new TransportV2(new URL(`${url}/api/mcp`), { authProvider: provider as never });
      const client = new ClientV2({ name: 'oauth-v2', version: '2.0.0' });
      const finish = (back: URL) => transport.finishAuth(back.searchParams);
      try {
        await client.connect(transport);
        return { client, finish };
      } catch (err) {
        if (!(err instanceof UnauthorizedV2)) throw err;
        return { finish };
      }
    },
    isUnauthorized: (err) => err instanceof UnauthorizedV2 || /401|Unauthorized/i.test(String(err)),
    async refresh(issuer, provider, refreshToken, resource) {
      const metadata = await discoverV2(issuer);
      return refreshV2(issuer, {
        metadata,
        clientInformation: { client_id: provider.clientId },
        refreshToken,
        resource: new URL(resource),
      });
    },
  },
];

for (const sdk of SDKS)
  for (const registration of ['dynamic registration', 'a client metadata document'] as const) {
    const byDocument = registration === 'a client metadata document';
    if (byDocument && !ca) continue;
    test(`${sdk.name}, ${registration}: 401 → discovery → client → PKCE → consent → token → tools/list → refresh → reuse → revocation`, async () => {
      const daemon = await serveOAuthDaemon(ca ? { oauthFetch: { extraCaCerts: [ca.caPem] } } : {});
      const documents = byDocument
        ? await serveHttps(ca!, (_req, res, origin) => {
            res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' });
            res.end(
              JSON.stringify({
                client_id: `${origin}/mcp-client.json`,
                client_name: 'SDK test client (document)',
                redirect_uris: [REDIRECT],
                grant_types: ['authorization_code', 'refresh_token'],
                response_types: ['code'],
                token_endpoint_auth_method: 'none',
              }),
            );
          })
        : undefined;
      const { t, url } = daemon;
      const open: Connected[] = [];
      try {
        const user = await createUser(t, { tier: 'company' });
        const companyId = (await createCompany(t, user)).id;
        const provider = new TestOAuthProvider(REDIRECT, documents && `${documents.origin}/mcp-client.json`);

        // The first connection gets a 401; the SDK discovers, makes itself known, and sends the browser off.
        const first = await sdk.connect(url, provider);
        assert.is(first.client, undefined, 'no token yet');
        assert.is(provider.authorizationUrls.length, 1);
        const authorizationUrl = provider.authorizationUrls[0]!;
        assert.is(authorizationUrl.origin + authorizationUrl.pathname, `${url}/oauth/authorize`);
        assert.is(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
        assert.is(authorizationUrl.searchParams.get('resource'), `${url}/api/mcp`);
        if (documents) {
          assert.is(
            provider.clientId,
            `${documents.origin}/mcp-client.json`,
            'no registration: the URL is the client_id',
          );
        } else assert.not.match(provider.clientId, /^https:/, 'registered: the daemon gave a client_id');

        const back = await consentAt(url, authorizationUrl, user, companyId);
        if (documents) assert.is(documents.hits.get('/mcp-client.json'), 1, 'the daemon read the document, once');
        assert.is(back.origin + back.pathname, REDIRECT);
        assert.is(back.searchParams.get('iss'), url);
        await first.finish(back);
        const signedIn = await sdk.connect(url, provider);
        assert.ok(signedIn.client, 'connected with the token');
        open.push(signedIn.client);
        const tools = await signedIn.client.listTools();
        assert.ok(tools.tools.length > 0, 'tools/list answered');

        // The access token expires (an hour); the SDK refreshes on the 401 and carries on.
        const spent = provider.refreshToken;
        t.clock.advance(2 * HOUR);
        assert.ok((await signedIn.client.listTools()).tools.length > 0, 'after a refresh');
        assert.is.not(provider.refreshToken, spent, 'the refresh token rotated');

        // The spent refresh token presented again: refused, and the whole grant ends.
        const reuse = await sdk.refresh(url, provider, spent, `${url}/api/mcp`).then(
          () => null,
          (err: unknown) => err,
        );
        const reuseError = reuse as { name?: string; errorCode?: string; code?: string } | null;
        assert.match(
          `${reuseError?.name} ${reuseError?.errorCode ?? reuseError?.code}`,
          /invalid_grant|InvalidGrant/,
          String(reuse),
        );
        const afterReuse = await fetch(`${url}/api/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${provider.accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        assert.is(afterReuse.status, 401, 'the access token of the replayed grant is refused');

        // Sign in again, then revoke: the next request is refused and the SDK cannot refresh its way back.
        const again = await sdk.connect(url, provider);
        assert.is(again.client, undefined);
        assert.is(provider.authorizationUrls.length, 2);
        await again.finish(await consentAt(url, provider.authorizationUrls[1]!, user, companyId));
        const renewed = await sdk.connect(url, provider);
        assert.ok(renewed.client);
        open.push(renewed.client);
        assert.ok((await renewed.client.listTools()).tools.length > 0);
        const revoked = await fetch(`${url}/oauth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token: provider.refreshToken, client_id: provider.clientId }),
        });
        assert.is(revoked.status, 200);
        const refused = await renewed.client.listTools().then(
          () => null,
          (err: unknown) => err,
        );
        assert.ok(refused && sdk.isUnauthorized(refused), `refused after revocation: ${String(refused)}`);
        assert.is(provider.authorizationUrls.length, 3, 'the SDK went back to the authorization endpoint');
      } finally {
        for (const c of open) await c.close().catch(() => {});
        await documents?.close();
        await daemon.close();
      }
    });
  }

test.run();
