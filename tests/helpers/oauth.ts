import * as oauth from 'oauth4webapi';
import { MCP_PATH } from '../../daemon/mcp/routes.js';
import { createOAuthServer, type OAuthServer } from '../../daemon/oauth/routes.js';
import { OAUTH_SCOPES } from '../../daemon/oauth/scopes.js';
import type { TestUser } from './accounts.js';
import type { TestApp } from './test-app.js';

export const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/**
 * fetch into the in-process app (no port): oauth4webapi talks to the daemon exactly as over HTTP,
 * through app.callback(). Headers and bodies are passed as they are.
 */
export function inProcessFetch(t: TestApp): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await t.request({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: url.host },
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) headers.append(name, v);
    }
    const noBody = res.status === 204 || res.status === 304;
    return new Response(noBody ? null : res.text, { status: res.status, headers });
  }) as typeof fetch;
}

/** What oauth4webapi needs to talk to the test app: the in-process fetch, plain HTTP allowed (loopback). */
export const clientOptions = (t: TestApp) => ({
  [oauth.customFetch]: inProcessFetch(t),
  [oauth.allowInsecureRequests]: true,
});

export async function discover(t: TestApp): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(t.deps.config.publicUrl);
  const res = await oauth.discoveryRequest(issuer, { ...clientOptions(t), algorithm: 'oauth2' });
  return oauth.processDiscoveryResponse(issuer, res);
}

export async function registerClient(
  t: TestApp,
  as: oauth.AuthorizationServer,
  metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {},
): Promise<oauth.Client> {
  const res = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', client_name: 'Test MCP client', ...metadata },
    clientOptions(t),
  );
  return oauth.processDynamicClientRegistrationResponse(res);
}

export interface ConsentInput {
  client: oauth.Client;
  user: TestUser;
  companyId: string;
  challenge: string;
  state?: string;
  decision?: 'allow' | 'deny';
  /** The scopes asked (and granted); default `events:read`. */
  scope?: string;
  extra?: Record<string, string>;
}

/** The consent page's call: the authorization request as the browser carried it, plus the user's answer. */
export function consent(t: TestApp, input: ConsentInput) {
  return t.post(
    '/api/oauth/authorize',
    {
      response_type: 'code',
      client_id: input.client.client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: input.challenge,
      code_challenge_method: 'S256',
      state: input.state ?? 'st-1',
      scope: input.scope ?? 'events:read',
      resource: `${t.deps.config.publicUrl}${MCP_PATH}`,
      company_id: input.companyId,
      decision: input.decision ?? 'allow',
      ...input.extra,
    },
    input.user.auth,
  );
}

/** A second authorization server over the same deps: what another daemon on the same storage sees. */
export function oauthServerOf(t: TestApp): OAuthServer {
  return createOAuthServer(t.deps, { resourcePath: MCP_PATH, scopes: OAUTH_SCOPES });
}

/** A whole sign-in, as a client does it: consent for `companyId`, the code redeemed; the token answer. */
export async function signIn(
  t: TestApp,
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  input: Omit<ConsentInput, 'client' | 'challenge'>,
): Promise<oauth.TokenEndpointResponse> {
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const state = input.state ?? 'st-1';
  const answer = await consent(t, { ...input, client, challenge, state });
  if (answer.status !== 200) throw new Error(`consent answered ${answer.status}: ${answer.text}`);
  const params = oauth.validateAuthResponse(as, client, new URL(answer.body.redirect_to), state);
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    REDIRECT_URI,
    verifier,
    clientOptions(t),
  );
  return oauth.processAuthorizationCodeResponse(as, client, res);
}

/** A tools/call at /api/mcp with an OAuth access token where the secret key goes. */
export function callToolWithToken(t: TestApp, token: string, name: string, args: Record<string, unknown> = {}) {
  return t.request({
    method: 'POST',
    url: '/api/mcp',
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
    },
  });
}
