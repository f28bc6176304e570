import type Provider from 'oidc-provider';
import type { Role } from '../../shared/roles.js';
import type { CompanyRecord } from '../store/tenancy-types.js';
import { claimTouch } from '../http/touch-throttle.js';
import { bindingOf, findBindingRecord, stampGrantUse } from './grant-binding.js';
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
  /** The Company as read on this request, and the user's role in it now (the token never acts beyond it). */
  company: CompanyRecord;
  role: Role;
}

/** A grant's `last_used_at` is written at most this often, so using a token does not turn every call into a write. */
const STAMP_EVERY_MS = 60_000;

/**
 * Resolves a presented access token, reading the store on every call (no cache): a token whose
 * grant was revoked, replayed or rotated away is refused on its very next request, on every
 * daemon. The token must be one issued for this resource (its audience), unexpired, its grant
 * must still carry svc's Company binding, and its user must still be a member of that Company.
 * Anything else is null: the caller answers 401. A token that resolves stamps its grant's last
 * use (connected apps show it).
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
  const record = await findBindingRecord(deps, found.grantId);
  const binding = record && bindingOf(record);
  if (!record || !binding || binding.clientId !== found.clientId || binding.userId !== found.accountId) return null;
  // A grant speaks for its user in one Company: once they are no longer a member, it opens nothing.
  const access = await deps.stores.members.accessOf(binding.companyId, binding.userId);
  if (!access?.role) return null;
  const now = deps.clock.now();
  const last = binding.last_used_at ? Date.parse(binding.last_used_at) : Number.NEGATIVE_INFINITY;
  if (now - last >= STAMP_EVERY_MS && claimTouch(deps.stores, `grant:${found.grantId}`, now, STAMP_EVERY_MS))
    await stampGrantUse(deps, found.grantId, now);
  return {
    userId: binding.userId,
    companyId: binding.companyId,
    clientId: binding.clientId,
    grantId: found.grantId,
    scopes: (found.scope ?? '').split(' ').filter(Boolean),
    company: access.company,
    role: access.role,
  };
}
