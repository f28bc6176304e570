import { createHash } from 'node:crypto';
import type { OAuthDeps } from './oauth-deps.js';
import { OAUTH_TTL } from './lifetimes.js';

/**
 * What svc adds to a grant: the Company the user chose on the consent page. The protocol library's
 * grant knows the user (its account), the client and the scopes; this record, filed under the same
 * grant id, adds the Company, so a token resolves to (user, Company, client, scopes) and ends
 * with its grant: revoking or replaying a grant removes this record with the rest.
 */
export interface GrantBinding {
  grantId: string;
  userId: string;
  companyId: string;
  clientId: string;
  scopes: string[];
}

const KIND = 'CompanyBinding';
const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

export async function bindGrant(deps: Pick<OAuthDeps, 'stores' | 'clock'>, binding: GrantBinding): Promise<void> {
  const now = deps.clock.now();
  await deps.stores.oauth.put(
    {
      kind: KIND,
      id_hash: hashOf(binding.grantId),
      grant_id: binding.grantId,
      uid: null,
      payload: { ...binding, created_at: new Date(now).toISOString() },
      expires_at: new Date(now + OAUTH_TTL.grant * 1000).toISOString(),
      consumed_at: null,
    },
    new Date(now).toISOString(),
  );
}

/** The binding of a live grant, or null once the grant is revoked, replayed or expired. */
export async function findGrantBinding(
  deps: Pick<OAuthDeps, 'stores' | 'clock'>,
  grantId: string,
): Promise<GrantBinding | null> {
  const found = await deps.stores.oauth.find(KIND, hashOf(grantId), new Date(deps.clock.now()).toISOString());
  return found ? (found.payload as unknown as GrantBinding) : null;
}
