import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer } from 'node:net';
import type { TestUser } from './accounts.js';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/**
 * What an MCP client's OAuth support needs from its host application, as the official SDKs (v1
 * and v2) define it: where to keep the client's registration, its tokens and the PKCE verifier,
 * and how to send the user to the authorization URL. Here the "browser" is the test: it records the
 * URL, and `consentAt` plays the user on the consent page.
 */
export class TestOAuthProvider {
  authorizationUrls: URL[] = [];
  private client: Record<string, unknown> | undefined;
  private stored: Record<string, unknown> | undefined;
  private verifier = '';
  private discovery: unknown;

  constructor(
    readonly redirectUrl: string,
    /** Set: the client is named by this metadata document URL instead of registering. */
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata() {
    return {
      client_name: 'SDK test client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.client = info;
  }
  tokens() {
    return this.stored as never;
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** v2 binds the callback to the authorization server it discovered (kept like the verifier). */
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
  invalidateCredentials(scope: string) {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }

  get clientId(): string {
    return String(this.client?.client_id ?? this.clientMetadataUrl);
  }
  get refreshToken(): string {
    return String(this.stored?.refresh_token);
  }
  get accessToken(): string {
    return String(this.stored?.access_token);
  }
}

/**
 * The user in the browser: opens the authorization URL on the daemon (a real request), follows it to
 * the console's consent page, and answers there as the page does: `POST /api/oauth/authorize`
 * with the session, the request's parameters, a Company and "allow". Returns where the browser is
 * sent back to: the client's redirect URI with `code`, `state` and `iss`.
 */
export async function consentAt(base: string, authorizationUrl: URL, user: TestUser, companyId: string): Promise<URL> {
  const start = await fetch(authorizationUrl, { redirect: 'manual' });
  if (start.status !== 303) throw new Error(`authorization endpoint: ${start.status} ${await start.text()}`);
  const page = new URL(String(start.headers.get('location')));
  const [route, query] = page.hash.split('?');
  if (route !== '#/oauth/consent') throw new Error(`not the consent page: ${page.href}`);
  const res = await fetch(`${base}/api/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...user.auth },
    body: JSON.stringify({
      ...Object.fromEntries(new URLSearchParams(query)),
      company_id: companyId,
      decision: 'allow',
    }),
  });
  const body = (await res.json()) as { redirect_to?: string };
  if (res.status !== 200 || !body.redirect_to) throw new Error(`consent: ${res.status} ${JSON.stringify(body)}`);
  return new URL(body.redirect_to);
}

/**
 * The in-process daemon served on a real loopback port, with its public URL on that port (every
 * URL in discovery and in redirects must reach it). Its clock is the test's fake one.
 */
export async function serveOAuthDaemon(options: TestAppOptions = {}): Promise<{
  t: TestApp;
  url: string;
  close(): Promise<void>;
}> {
  const port = await unusedPort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...options, config: { ...options.config, port, publicUrl: url } });
  const server: Server = createServer(t.app.callback());
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    t,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await t.close();
    },
  };
}

export async function unusedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
