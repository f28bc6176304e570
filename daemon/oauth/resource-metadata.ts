import { Router } from '@koa/router';
import { PROTECTED_RESOURCE_METADATA, type OAuthUrls } from './urls.js';

/**
 * RFC 9728: what an MCP client reads after a 401 to learn which authorization server issues tokens
 * for the MCP endpoint. Served at the well-known path itself and with the resource's path appended
 * (the form the 401's `resource_metadata` names); both answer the same document. Public and
 * cacheable: it holds nothing but URLs and scope names.
 */
export function protectedResourceRoutes(urls: OAuthUrls, scopes: readonly string[]): Router {
  const document = {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'svc MCP endpoint',
  };
  const router = new Router();
  const resourcePath = new URL(urls.resource).pathname;
  router.get([PROTECTED_RESOURCE_METADATA, `${PROTECTED_RESOURCE_METADATA}${resourcePath}`], (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = document;
  });
  return router;
}
