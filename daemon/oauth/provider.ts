// The named export, not the default: in the daemon's CommonJS-shaped bundle the package is required
// from node_modules, and only its named exports survive that interop.
import { Provider, errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { isLoopback } from '../http/host-guard.js';
import { createAdapterClass } from './adapter.js';
import { allowLoopbackRedirectsOnAnyPort } from './loopback-redirects.js';
import { createOutgoingFetch, OUTGOING_FETCH_DEFAULTS } from './outgoing-fetch.js';
import { renderOAuthErrorPage } from './error-page.js';
import { OAUTH_TTL } from './lifetimes.js';
import { deriveOAuthKeys } from './signing-keys.js';
import { OAUTH_ROUTES, type OAuthUrls } from './urls.js';
import type { OAuthDeps } from './oauth-deps.js';

/**
 * The protocol engine: oidc-provider configured as an OAuth 2.1 authorization server for one
 * protected resource, the MCP endpoint. What it does (PKCE, registration, resource indicators,
 * rotation, revocation, `iss` in responses) is the library's; what is svc's is here: the URLs, the
 * storage, the keys, the lifetimes, and the accounts (a token's subject is an svc user id).
 */
export function createOAuthProvider(deps: OAuthDeps, urls: OAuthUrls): Provider {
  const { signingKey, cookieKeys } = deriveOAuthKeys(deps.secrets.jwtSecret);
  const Adapter = createAdapterClass({
    store: deps.stores.oauth,
    clock: deps.clock,
    clientIdleSeconds: deps.config.oauthClientIdleSeconds ?? OAUTH_TTL.clientIdle,
    alreadyUsed: (kind) =>
      new errors.InvalidGrant(`${kind === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`),
  });
  const scope = deps.scopes.join(' ');
  const maxBytes = OUTGOING_FETCH_DEFAULTS.maxBytes;
  const configuration: Configuration = {
    adapter: Adapter,
    clients: [],
    jwks: { keys: [signingKey] },
    cookies: { keys: cookieKeys },
    routes: OAUTH_ROUTES,
    scopes: [...deps.scopes],
    responseTypes: ['code'],
    // OAuth 2.1: PKCE on every authorization request; the library's only method is S256.
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    // Every URL the server fetches (client ID metadata documents, a client's jwks_uri): checked
    // address, no redirects, time and size limits, cached in the store (outgoing-fetch.ts).
    fetch: createOutgoingFetch({
      store: deps.stores.oauth,
      clock: deps.clock,
      allowPrivateAddresses: loopbackOnly(deps.config.host, urls.issuer),
      timeoutMs: deps.oauthFetch?.timeoutMs ?? OUTGOING_FETCH_DEFAULTS.timeoutMs,
      maxBytes,
      cacheSeconds: OUTGOING_FETCH_DEFAULTS.cacheSeconds,
      ...(deps.oauthFetch?.extraCaCerts ? { extraCaCerts: deps.oauthFetch.extraCaCerts } : {}),
    }),
    fetchResponseBodyLimits: {
      'client_id metadata document': maxBytes,
      jwks_uri: maxBytes,
      sector_identifier_uri: maxBytes,
    },
    async findAccount(_ctx, id) {
      const user = await deps.stores.users.findById(id);
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      // A public client may revoke only its own tokens; another's are ignored (RFC 7009 §2.2 answers 200 all the same).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      registration: { enabled: true, initialAccessToken: false },
      // A client_id that is an https URL names its own metadata document (the Client ID Metadata
      // Document draft): the library fetches it through `fetch` above, checks that it names itself
      // and holds no secret, and its redirect_uris are the only ones allowed. The library's own
      // in-memory cache is turned off (a zero lifetime): the store's cache (outgoing-fetch.ts) is
      // the one every daemon shares and the one svc's clock ages.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: (_ctx, id) => hasPath(id),
        // A public client only (no secret, no key to sign with), and one that names where to send codes.
        allowClient: (_ctx, client) =>
          client.tokenEndpointAuthMethod === 'none' && (client.redirectUris?.length ?? 0) > 0,
        cacheDuration: { min: 0, max: 0 },
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a token for the one resource there is.
        defaultResource: () => urls.resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== urls.resource)
            throw new errors.InvalidTarget(`this server issues tokens only for ${urls.resource}`);
          return { scope, audience: urls.resource, accessTokenFormat: 'opaque', accessTokenTTL: OAUTH_TTL.accessToken };
        },
      },
    },
    // Refresh tokens without `offline_access` (MCP clients rarely ask for it), rotated on every use;
    // a rotated token presented again ends the grant (the library's reuse detection).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AuthorizationCode: OAUTH_TTL.code,
      AccessToken: OAUTH_TTL.accessToken,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Interaction: OAUTH_TTL.interaction,
      Session: OAUTH_TTL.interaction,
    },
    // The consent page (the web console) gets the authorization request's own parameters: it only
    // forwards them, and the consent route checks all of them again.
    interactions: { url: (_ctx, interaction) => consentUrl(urls.issuer, interaction.params) },
    // A browser client may call the token and revocation endpoints from the origin it redirects to.
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((u) => sameOrigin(u, origin)) ?? false,
    discovery: { scopes_supported: [...deps.scopes] },
    renderError: renderOAuthErrorPage,
  };
  const provider = new Provider(urls.issuer, configuration);
  allowLoopbackRedirectsOnAnyPort(provider);
  // The daemon's mount hands each request over as addressed to the public URL (routes.ts).
  provider.proxy = true;
  return provider;
}

function consentUrl(issuer: string, params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') query.set(name, value);
  return `${issuer}/#/oauth/consent?${query}`;
}

/**
 * A daemon that only its own machine can reach: bound to loopback and published nowhere else. One
 * bound to loopback behind a tunnel or a proxy (a public URL of another host) is reachable by
 * anyone, who could then make it fetch addresses on its private network.
 */
function loopbackOnly(bind: string, issuer: string): boolean {
  const host = new URL(issuer).hostname;
  return isLoopback(bind) && isLoopback(host);
}

/** The draft asks for a path in a client ID URL: `https://host/` alone names a site, not a client. */
function hasPath(id: string): boolean {
  try {
    return new URL(id).pathname.length > 1;
  } catch {
    return false;
  }
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export type { KoaContextWithOIDC };
