import { Router } from '@koa/router';
import type Provider from 'oidc-provider';
import { oauthAuthorizeRequest } from '../../shared/schemas/oauth.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { validate } from '../http/validate.js';
import { answerAuthorization } from './consent.js';
import type { OAuthDeps } from './oauth-deps.js';
import type { OAuthUrls } from './urls.js';

export const CONSENT_PATH = '/api/oauth/authorize';

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
  return router;
}
