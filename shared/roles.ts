import { ALL_SCOPES, type Scope } from './scopes.js';

/**
 * A person's place in a Company, as a set of grants: the key scopes (shared/scopes.ts) plus the few
 * grants only people hold, for managing the Company itself. The one permission check reads a
 * person's grants from their role exactly as it reads a key's from its scopes (docs/companies.md).
 */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an invitation or a role change may give: ownership moves only by a transfer. */
export const ASSIGNABLE_ROLES = ['admin', 'member', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const isRole = (value: unknown): value is Role => ROLES.includes(value as Role);

/**
 * Grants no key can carry: they act on the Company's people and keys, which only people manage
 * (the member routes take a session, never a key).
 */
export const COMPANY_GRANTS = {
  'members:read': 'list the members of the Company',
  'members:write': 'invite people, change roles, remove members, list and revoke invitations',
  'keys:manage': 'see, rotate and revoke every key of the Company, not only your own',
  'company:transfer': 'hand the ownership of the Company to another member',
  'company:delete': 'delete the Company, with its runtime, keys, members and invitations',
} as const;
export type CompanyGrant = keyof typeof COMPANY_GRANTS;

/** Whatever a role or a key may hold. */
export type Grant = Scope | CompanyGrant;

const READS = ALL_SCOPES.filter((s) => s.endsWith(':read'));
const MEMBER_WRITES: readonly Scope[] = ['events:trigger', 'messages:send', 'quests:write', 'sessions:write'];

/** What each role holds. Admins hold everything but ownership (and deleting the Company, which is the owner's). */
export const ROLE_GRANTS: Readonly<Record<Role, readonly Grant[]>> = {
  viewer: [...READS, 'members:read'],
  member: [...READS, ...MEMBER_WRITES, 'members:read'],
  admin: [...ALL_SCOPES, 'members:read', 'members:write', 'keys:manage'],
  owner: [...ALL_SCOPES, 'members:read', 'members:write', 'keys:manage', 'company:transfer', 'company:delete'],
};

export const roleGrants = (role: Role, grant: Grant): boolean => ROLE_GRANTS[role].includes(grant);

/** The key scopes a role may hand to a key it makes: all of them for admins and the owner. */
export const roleKeyScopes = (role: Role): Scope[] => ALL_SCOPES.filter((s) => roleGrants(role, s));
