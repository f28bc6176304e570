/** Where the authorization server's own endpoints live; the discovery documents are at the root's /.well-known/. */
export const OAUTH_PREFIX = '/oauth';
export const OAUTH_ROUTES = {
  authorization: `${OAUTH_PREFIX}/authorize`,
  token: `${OAUTH_PREFIX}/token`,
  registration: `${OAUTH_PREFIX}/register`,
  revocation: `${OAUTH_PREFIX}/revoke`,
  jwks: `${OAUTH_PREFIX}/jwks`,
  end_session: `${OAUTH_PREFIX}/session/end`,
} as const;

export const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';
export const OPENID_CONFIGURATION = '/.well-known/openid-configuration';
export const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';

/** The paths the protocol library answers; it reads its own bodies there (form-encoded, not JSON). */
export function isProviderPath(path: string): boolean {
  const p = path.toLowerCase();
  return p.startsWith(`${OAUTH_PREFIX}/`) || p === AUTHORIZATION_SERVER_METADATA || p === OPENID_CONFIGURATION;
}

/**
 * Every URL the authorization server names, from the daemon's public URL (`--public-url`,
 * SVC_PUBLIC_URL; by default its own loopback address) and never from a request's Host or
 * X-Forwarded-* headers: a document built from those would let whoever sends the request choose
 * where clients send their codes and tokens.
 */
export interface OAuthUrls {
  /** The issuer: the public URL's origin and path, without a trailing slash. */
  issuer: string;
  /** The protected resource the tokens are for: the MCP endpoint. */
  resource: string;
  /** RFC 9728's metadata URL for that resource (the well-known path with the resource's path appended). */
  resourceMetadata: string;
}

/** `resourcePath` is the MCP endpoint's path, given by its room (this one stands below it). */
export function oauthUrlsOf(publicUrl: string, resourcePath: string): OAuthUrls {
  const issuer = publicUrl.replace(/\/+$/, '');
  const base = new URL(`${issuer}/`);
  const basePath = base.pathname.replace(/\/$/, '');
  return {
    issuer,
    resource: `${issuer}${resourcePath}`,
    resourceMetadata: `${base.origin}${PROTECTED_RESOURCE_METADATA}${basePath}${resourcePath}`,
  };
}
