import { createHash } from 'node:crypto';
import { GRANT_BINDING_KIND, type OAuthRecord } from '../store/oauth-types.js';
import type { OAuthDeps } from './oauth-deps.js';
import { OAUTH_TTL } from './lifetimes.js';

/**
 * What svc adds to a grant: the Company the user chose on the consent page. The protocol library's
 * grant knows the user (its account), the client and the scopes; this record, filed under the same
 * grant id, adds the Company, so a token resolves to (user, Company, client, scopes) and ends
 * with its grant: revoking or replaying a grant removes this record with the rest. It is filed
 * under the user's id too (its `uid`), so a user's grants are listed (connected apps) and ended
 * together (a password change) without scanning anything else.
 */
export interface GrantBinding {
  grantId: string;
  userId: string;
  companyId: string;
  clientId: string;
  scopes: string[];
  created_at?: string;
  /** When a token of the grant was last used at the MCP endpoint (written at most once a minute). */
  last_used_at?: string | null;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();

export async function bindGrant(deps: Pick<OAuthDeps, 'stores' | 'clock'>, binding: GrantBinding): Promise<void> {
  const now = deps.clock.now();
  await deps.stores.oauth.put(
    {
      kind: GRANT_BINDING_KIND,
      id_hash: hashOf(binding.grantId),
      grant_id: binding.grantId,
      uid: binding.userId,
      payload: { ...binding, created_at: iso(now), last_used_at: null },
      expires_at: iso(now + OAUTH_TTL.grant * 1000),
      consumed_at: null,
    },
    iso(now),
  );
}

/** The binding's record of a live grant, or undefined once the grant is revoked, replayed or expired. */
export function findBindingRecord(
  deps: Pick<OAuthDeps, 'stores' | 'clock'>,
  grantId: string,
): Promise<OAuthRecord | undefined> {
  return deps.stores.oauth.find(GRANT_BINDING_KIND, hashOf(grantId), iso(deps.clock.now()));
}

/** The binding of a live grant, or null once the grant is revoked, replayed or expired. */
export async function findGrantBinding(
  deps: Pick<OAuthDeps, 'stores' | 'clock'>,
  grantId: string,
): Promise<GrantBinding | null> {
  const found = await findBindingRecord(deps, grantId);
  return found ? bindingOf(found) : null;
}

export const bindingOf = (record: OAuthRecord) => record.payload as unknown as GrantBinding;

/** Records that a token of the grant was used now (only while the grant lives). */
export function stampGrantUse(deps: Pick<OAuthDeps, 'stores'>, grantId: string, nowMs: number): Promise<void> {
  return deps.stores.oauth.stamp(GRANT_BINDING_KIND, hashOf(grantId), 'last_used_at', iso(nowMs));
}

/** The user's live grants, newest first. */
export async function listUserBindings(deps: Pick<OAuthDeps, 'stores' | 'clock'>, userId: string) {
  const records = await deps.stores.oauth.listByUid(GRANT_BINDING_KIND, userId, iso(deps.clock.now()));
  return records.map(bindingOf).sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''));
}
