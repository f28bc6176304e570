import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { Deps } from '../deps.js';
import { type AccessTokenResolver, keyAuthOf, requireKeys } from '../access/key-guard.js';
import { withBearerChallenge } from './auth-challenge.js';
import { loadLazily } from '../lazy-module.js';
import { mcpOriginAndCors, trustedOrigins } from './origin-cors.js';
import { oauthUrlsOf } from '../oauth/urls.js';

/** /api/mcp reads its own body (app.ts lists it in the body parser's passThrough): a bad body gets a JSON-RPC error, not ours. */
export const MCP_PATH = '/api/mcp';

/**
 * The MCP endpoints behind the key guard (sk_ or an OAuth access token, optional ak_, then the
 * tier gate). `accessTokens` resolves the tokens the daemon's authorization server issued; without
 * it only secret keys are taken.
 * `POST /api/mcp/validate` (a REST route: no Origin rule; its 401s carry the same challenge) says who the credentials resolve to without running a tool; `/api/mcp` is the
 * MCP server (Streamable HTTP; GET and DELETE answer 405), built once: it holds the daemon's one SDK Server.
 */
export function mcpRoutes(deps: Deps, accessTokens?: AccessTokenResolver): Router {
  const router = new Router();
  const guard = requireKeys(deps, accessTokens);
  const { resourceMetadata } = oauthUrlsOf(deps.config.publicUrl, MCP_PATH);

  router.post(`${MCP_PATH}/validate`, withBearerChallenge(guard, resourceMetadata), async (ctx) => {
    const { user, company, keyId, oauth, principal, accountKey } = keyAuthOf(ctx);
    ctx.body = {
      ok: true,
      user: { id: user.id, email: user.email },
      company: { id: company.id, name: company.name },
      account_key: accountKey,
      key_id: keyId,
      ...(oauth && principal.kind === 'oauth'
        ? { oauth: { client_id: oauth.clientId, grant_id: oauth.grantId, scopes: principal.scopes } }
        : {}),
      tier: user.tier,
    };
  });

  // Order matters: the Origin check (and CORS, and the key-less preflight) first, so a foreign page
  // is refused whatever key it sends; then the key guard, whose 401s carry a Bearer challenge.
  const origins = mcpOriginAndCors(trustedOrigins(deps.config.publicUrl, deps.config.mcpAllowedOrigins));
  router.all(MCP_PATH, origins, withBearerChallenge(guard, resourceMetadata), lazyEndpoint(deps));

  return router;
}

/**
 * The endpoint and both MCP SDKs (with ajv and zod-to-json-schema, ~70 modules) are loaded by the
 * first MCP request, not at start (lazy-module.ts); built once, it then holds the one SDK Server.
 */
function lazyEndpoint(deps: Deps): Middleware {
  let endpoint: Middleware | undefined;
  const load = loadLazily('The MCP server (@modelcontextprotocol/sdk)', async () => {
    endpoint = (await import('./endpoint.js')).mcpEndpoint(deps);
    return endpoint;
  });
  // Once built, the endpoint is called directly: no promise to wait for on every call.
  return (ctx, next) => (endpoint ? endpoint(ctx, next) : load().then((serve) => serve(ctx, next)));
}
