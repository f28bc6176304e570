import { Router } from '@koa/router';
import type Provider from 'oidc-provider';
import { oauthAuthorizeRequest } from '../../shared/schemas/oauth.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { validate } from '../http/validate.js';
import { ErrorCode } from '../../shared/errors.js';
import { missing } from '../domain-error.js';
import { answerAuthorization } from './consent.js';
import type { OAuthDeps } from './oauth-deps.js';
import type { OAuthUrls } from './urls.js';

export const CONSENT_PATH = '/api/oauth/authorize';
export const CLIENT_INFO_PATH = '/api/oauth/clients/:clientId';

/**
 * `POST /api/oauth/authorize`: the consent page's answer, with the user's session token (a
 * logged-in user, any factor). It answers `{ redirect_to }`: where the page sends the browser,
 * the client's redirect URI with a code (allow) or `error=access_denied` (deny), `state` and `iss`.
 * The answer holds a live code: never cached.
 */
export function consentRoutes(deps: OAuthDeps, provider: () => Promise<Provider>, urls: OAuthUrls): Router {
  const router = new Router();
  router.post(CONSENT_PATH, requireUser(deps), async (ctx) => {
    const request = validate(oauthAuthorizeRequest, ctx.request.body);
    const redirectTo = await answerAuthorization(deps, await provider(), urls, request, userOf(ctx).user.id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { redirect_to: redirectTo };
  });

  // What the consent page shows of a client before the user answers: its id and the name it gave
  // itself (a claim, shown as such), and whether the redirect URI of the request is one it
  // registered, so the page never offers to send the browser elsewhere. Nothing else of the
  // registration (no secret, no other URI). Behind a session: looking a client up may fetch its
  // metadata document, which an anonymous caller must not be able to make the daemon do.
  router.get(CLIENT_INFO_PATH, requireUser(deps), async (ctx) => {
    const client = await (await provider()).Client.find(ctx.params.clientId!).catch(() => undefined);
    if (!client) throw missing(`No client is registered as ${ctx.params.clientId}.`, ErrorCode.oauthInvalidClient);
    const redirectUri = typeof ctx.query.redirect_uri === 'string' ? ctx.query.redirect_uri : null;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      client_id: client.clientId,
      client_name: typeof client.clientName === 'string' ? client.clientName : null,
      ...(redirectUri === null ? {} : { redirect_uri_allowed: client.redirectUriAllowed(redirectUri) }),
    };
  });
  return router;
}
