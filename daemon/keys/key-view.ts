import type { Deps } from '../deps.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';

export const SAVE_NOTE =
  'Save this secret key now: it is shown only once and cannot be recovered. Lost it? Create a new one and revoke this one.';

/** A secret key as lists and answers show it: metadata only, never the hash. Fields a record written before scopes lacks read as "every scope, never expires". */
export async function secretKeyView(deps: Pick<Deps, 'stores'>, k: SecretKeyRecord) {
  const company = await deps.stores.companies.findById(k.company_id);
  return {
    name: k.name,
    company: { id: k.company_id, name: company?.name ?? null },
    /** Who made the key: it stays the Company's (and keeps working) when they leave. */
    created_by: k.user_id,
    prefix: k.prefix,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    scopes: k.scopes ?? null,
    expires_at: k.expires_at ?? null,
    last_used_ip: k.last_used_ip ?? null,
    retires_at: k.retires_at ?? null,
    replaced_by: k.replaced_by ?? null,
  };
}
