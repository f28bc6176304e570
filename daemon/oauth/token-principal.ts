import type Provider from 'oidc-provider';
import { findGrantBinding } from './grant-binding.js';
import type { OAuthDeps } from './oauth-deps.js';
import type { OAuthUrls } from './urls.js';

/**
 * Who an OAuth access token speaks for: the same shape of answer a secret key gives (a user, a
 * Company, scopes), plus the client and the grant, so the one permission check can take it where
 * it takes a key, and the grant can be shown and revoked as a connected app.
 */
export interface TokenPrincipal {
  userId: string;
  companyId: string;
  clientId: string;
  grantId: string;
  scopes: string[];
}

/**
 * Resolves a presented access token, reading the store on every call (no cache): a token whose
 * grant was revoked, replayed or rotated away is refused on its very next request, on every
 * daemon. The token must be one issued for this resource (its audience), unexpired, its grant
 * must still carry svc's Company binding, and its user must still be a member of that Company.
 * Anything else is null: the caller answers 401.
 */
export async function resolveAccessToken(
  deps: Pick<OAuthDeps, 'stores' | 'clock'>,
  provider: Provider,
  urls: OAuthUrls,
  token: string,
): Promise<TokenPrincipal | null> {
  const found = await provider.AccessToken.find(token);
  if (!found || found.isExpired || !found.grantId) return null;
  const audience = Array.isArray(found.aud) ? found.aud : [found.aud];
  if (!audience.includes(urls.resource)) return null;
  const binding = await findGrantBinding(deps, found.grantId);
  if (!binding || binding.clientId !== found.clientId || binding.userId !== found.accountId) return null;
  // A grant speaks for its user in one Company: once they are no longer a member, it opens nothing.
  const access = await deps.stores.members.accessOf(binding.companyId, binding.userId);
  if (!access?.role) return null;
  return {
    userId: binding.userId,
    companyId: binding.companyId,
    clientId: binding.clientId,
    grantId: found.grantId,
    scopes: (found.scope ?? '').split(' ').filter(Boolean),
  };
}
