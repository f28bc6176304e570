import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Deps } from '../deps.js';
import { tooManyRequests } from '../http/api-error.js';
import { createRateLimiter, type RateLimiter } from '../http/rate-limit.js';
import { loadLazily } from '../lazy-module.js';
import type Provider from 'oidc-provider';
import { consentRoutes } from './consent-routes.js';
import { grantRoutes } from './grant-routes.js';
import type { OAuthDeps } from './oauth-deps.js';
import { resolveAccessToken, type TokenPrincipal } from './token-principal.js';
import { protectedResourceRoutes } from './resource-metadata.js';
import { noteRequestFacts, requestFactsOf } from './request-facts.js';
import {
  AUTHORIZATION_SERVER_METADATA,
  OAUTH_ROUTES,
  OPENID_CONFIGURATION,
  oauthUrlsOf,
  type OAuthUrls,
} from './urls.js';

export interface OAuthOptions {
  /** The protected resource's path (the MCP endpoint's, given by the composer: this room stands below it). */
  resourcePath: string;
  scopes: readonly string[];
}

/** Dynamic registrations per client address: enough for a few MCP clients set up in an hour, not a flood of records. */
const REGISTRATIONS = [
  { limit: 10, windowMs: 3600_000 },
  { limit: 30, windowMs: 24 * 3600_000 },
];
/**
 * Authorization requests per client address. Each one the library accepts stores a pending
 * request (ten minutes) before any login, so an anonymous flood would be a flood of records.
 */
const AUTHORIZATIONS = [{ limit: 30, windowMs: 600_000 }];
/**
 * Token and revocation requests per client address. A client refreshes about once an hour; an
 * unknown `client_id` that is an https URL makes the daemon fetch that document, so without a
 * ceiling anyone could have a published daemon fetch public URLs on their behalf.
 */
const TOKEN_REQUESTS = [{ limit: 120, windowMs: 600_000 }];

/**
 * The authorization server's route groups: the protected resource's metadata (svc's own, RFC 9728)
 * and the endpoints the protocol library answers. Each library path is a route here, so the
 * library runs only for its own paths (the hot routes never reach it) and is loaded by the first
 * request to one of them, not at start. The Host check and the URL-text check have run before.
 */
export interface OAuthServer {
  routers: Router[];
  /** An access token → who it speaks for, or null (for the permission check that accepts tokens). */
  resolveAccessToken(token: string): Promise<TokenPrincipal | null>;
}

export function createOAuthServer(deps: Deps, options: OAuthOptions): OAuthServer {
  const urls = oauthUrlsOf(deps.config.publicUrl, options.resourcePath);
  const oauthDeps: OAuthDeps = { ...deps, scopes: options.scopes };
  const provider = loadProvider(oauthDeps, urls);
  const handOver = providerHandOver(provider, urls);
  const limitRegistrations = limitPerAddress(
    createRateLimiter(deps.stores.limits, deps.clock, 'oauth_register', REGISTRATIONS),
    'Too many client registrations from this address. Try again later.',
  );
  const limitAuthorizations = limitPerAddress(
    createRateLimiter(deps.stores.limits, deps.clock, 'oauth_authorize', AUTHORIZATIONS),
    'Too many sign-in requests from this address. Wait a few minutes.',
  );

  const limitTokenRequests = limitPerAddress(
    createRateLimiter(deps.stores.limits, deps.clock, 'oauth_token', TOKEN_REQUESTS),
    'Too many token requests from this address. Wait a few minutes.',
  );

  const router = new Router();
  router.get(OAUTH_ROUTES.authorization, limitAuthorizations, handOver);
  router.get(`${OAUTH_ROUTES.authorization}/:uid`, handOver);
  router.post(OAUTH_ROUTES.token, limitTokenRequests, handOver);
  router.options(OAUTH_ROUTES.token, preflightOnly('POST, OPTIONS'), handOver);
  router.post(OAUTH_ROUTES.revocation, limitTokenRequests, handOver);
  router.options(OAUTH_ROUTES.revocation, preflightOnly('POST, OPTIONS'), handOver);
  router.post(OAUTH_ROUTES.registration, limitRegistrations, handOver);
  router.get(`${OAUTH_ROUTES.registration}/:clientId`, handOver);
  router.get(OAUTH_ROUTES.jwks, handOver);
  for (const path of [AUTHORIZATION_SERVER_METADATA, OPENID_CONFIGURATION]) {
    router.get(path, handOver);
    router.options(path, preflightOnly('GET, OPTIONS'), handOver);
  }
  return {
    routers: [
      protectedResourceRoutes(urls, options.scopes),
      router,
      consentRoutes(oauthDeps, provider, urls),
      grantRoutes(oauthDeps),
    ],
    resolveAccessToken: async (token) => resolveAccessToken(oauthDeps, await provider(), urls, token),
  };
}

const limitPerAddress =
  (limiter: RateLimiter, message: string): Middleware =>
  async (ctx, next) => {
    const wait = await limiter.hit(ctx.ip);
    if (wait !== null) throw tooManyRequests(wait, message);
    return next();
  };

/**
 * The library answers browsers' CORS preflights; an OPTIONS that is no preflight (no Origin) asks
 * which methods the path takes, and gets that answer here.
 */
const preflightOnly =
  (allow: string): Middleware =>
  (ctx, next) => {
    if (ctx.get('Origin')) return next();
    ctx.set('Allow', allow);
    ctx.status = 204;
  };

/**
 * The library's Koa app, built by the first request that needs it (its module and jose are not
 * part of a daemon's start), then kept: one per daemon, stateless between requests (every record
 * is in the store).
 */
function loadProvider(deps: OAuthDeps, urls: OAuthUrls): () => Promise<Provider> {
  return loadLazily('The authorization server (oidc-provider)', async () => {
    const { createOAuthProvider } = await import('./provider.js');
    const provider = createOAuthProvider(deps, urls);
    provider.silent = true;
    noteRequestFacts(provider);
    provider.on('server_error', (_ctx: Context, err: Error) =>
      deps.log.error('authorization server error', { err: err.message }),
    );
    return provider;
  });
}

/**
 * Hands the request to the library's own Koa app, as addressed to the public URL: the forwarded
 * host and scheme are set from it (overwriting whatever the client sent), so every URL the
 * library writes (discovery, `iss`, redirects to the consent page) names the public URL. The
 * library reads its own (form-encoded) bodies: app.ts's JSON parser passes these paths through.
 */
function providerHandOver(provider: () => Promise<Provider>, urls: OAuthUrls): Middleware {
  const publicUrl = new URL(urls.issuer);
  let handle: ReturnType<Provider['callback']> | undefined;
  return async (ctx) => {
    handle ??= (await provider()).callback();
    ctx.req.headers['x-forwarded-host'] = publicUrl.host;
    ctx.req.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    delete ctx.req.headers['x-forwarded-port'];
    ctx.respond = false;
    try {
      await handle(ctx.req, ctx.res);
    } finally {
      const facts = requestFactsOf(ctx.req);
      if (facts) ctx.state.oauthRequest = facts;
    }
  };
}
