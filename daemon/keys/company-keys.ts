import { ErrorCode } from '../../shared/errors.js';
import { type Role, roleGrants } from '../../shared/roles.js';
import { ALL_SCOPES, type Scope } from '../../shared/scopes.js';
import type { Tier } from '../../shared/wire.js';
import type { Deps } from '../deps.js';
import { checkAccess } from '../access/permission.js';
import { refusalOf } from '../access/refusal.js';
import { missing } from '../domain-error.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';
import type { UserRecord } from '../store/types.js';

/**
 * Keys belong to their Company. Whoever made one (`user_id`, shown as `created_by`) manages it
 * while they are a member; admins and the owner manage every key of the Company (`keys:manage`).
 * Each answer is the one permission check's, asked with the caller's role as read now.
 */

/** A key the user may act on: theirs in a Company they still belong to, or any of a Company they manage keys of. */
export async function manageableKey(
  deps: Pick<Deps, 'stores' | 'clock'>,
  user: UserRecord,
  id: string,
): Promise<{ key: SecretKeyRecord; role: Role }> {
  const key = await deps.stores.keys.findSecretKeyById(id);
  const access = key && (await deps.stores.members.accessOf(key.company_id, user.id));
  // Outside the key's Company, a key id answers exactly like an unknown one: nothing is learned.
  if (!key || !access?.role) throw missing(`You have no secret key ${id}.`, ErrorCode.keyNotFound);
  if (key.user_id !== user.id) {
    const verdict = checkAccess(
      { kind: 'session', user, role: access.role },
      { kind: 'grant', grant: 'keys:manage', what: `managing the key ${id}, which another member made` },
      deps.clock.now(),
    );
    if (!verdict.allowed) throw refusalOf(verdict);
  }
  return { key, role: access.role };
}

/**
 * The scopes a key made (or rotated) by someone of this role gets: those asked, each one the role
 * holds (the first it lacks is a 403 naming it, and no key is made); none asked, every scope the
 * role holds, stored as null (every scope) for the roles that hold them all.
 */
export function scopesWithinRole(
  user: UserRecord,
  role: Role,
  asked: readonly string[] | null | undefined,
  nowMs: number,
): Scope[] | null {
  const wanted = asked ? ALL_SCOPES.filter((s) => asked.includes(s)) : ALL_SCOPES;
  for (const scope of wanted) {
    const verdict = checkAccess(
      { kind: 'session', user, role },
      { kind: 'grant', grant: scope, what: `giving a key the scope ${scope}` },
      nowMs,
    );
    if (!verdict.allowed) {
      if (asked) throw refusalOf(verdict);
      return ALL_SCOPES.filter((s) => roleGrants(role, s));
    }
  }
  return asked ? wanted : null;
}

/** The tier that decides whether the Company's keys are made and work: its owner's. */
export async function ownerTierOf(
  deps: Pick<Deps, 'stores'>,
  user: UserRecord,
  company: { owner_id: string },
): Promise<Tier> {
  if (company.owner_id === user.id) return user.tier;
  return (await deps.stores.users.findById(company.owner_id))?.tier ?? 'trial';
}

/** The keys the user sees: every key of the Companies whose keys they manage, their own in the others. */
export async function visibleKeys(deps: Pick<Deps, 'stores'>, user: UserRecord): Promise<SecretKeyRecord[]> {
  const keys: SecretKeyRecord[] = [];
  for (const { company, role } of await deps.stores.members.companiesOf(user.id)) {
    const all = await deps.stores.keys.listCompanyKeys(company.id);
    keys.push(...(roleGrants(role, 'keys:manage') ? all : all.filter((k) => k.user_id === user.id)));
  }
  return keys.sort((a, b) => a.created_at.localeCompare(b.created_at));
}
