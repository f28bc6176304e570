import { type Grant, type Role, roleGrants } from '../../shared/roles.js';
import type { Tier } from '../../shared/wire.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';
import type { UserRecord } from '../store/types.js';
import { type RouteScopeTable, routeNeed, type ScopeNeed, toolNeed } from './operation-scopes.js';
import { tierAllowsKeys, tierRefusalMessage } from './tier-gate.js';

/**
 * "May this principal do this here?", answered in one place for every way in: the tenant routes
 * (companies/tenant.ts), the key guard, the MCP endpoint, and `explain` (which must give the very
 * verdict the real request would get, so it calls this and nothing else).
 */

/**
 * Who is asking. A person (a session) holds the grants of their role in the Company; a key holds
 * its scopes, and works only while the Company's owner is on a tier with keys, whoever made it; an
 * OAuth access token holds the scopes its user granted the client, never beyond that user's role
 * now, under the same tier rule as a key.
 */
export type Principal =
  | { kind: 'session'; user: UserRecord; role: Role }
  | { kind: 'key'; user: UserRecord; key: SecretKeyRecord; ownerTier: Tier }
  | { kind: 'oauth'; user: UserRecord; clientId: string; scopes: readonly string[]; role: Role; ownerTier: Tier };

/** What is asked: a Company route by method and registered pattern, or an MCP tool call. */
export type Operation =
  | { kind: 'rest'; method: string; route: string; table?: RouteScopeTable }
  | { kind: 'mcp'; tool: string; action?: unknown }
  /** One grant asked directly, where no route decides alone (managing another member's key). */
  | { kind: 'grant'; grant: Grant; what: string }
  /** Only the credential itself (is it alive, is the tier paid): what `/api/mcp/validate` needs. */
  | { kind: 'authenticate' };

export type Rule = 'ok' | 'scope' | 'tier' | 'expiry' | 'revoked' | 'rate_limit';

export interface Verdict {
  allowed: boolean;
  rule: Rule;
  required_scope?: string;
  /** For a refusal: a sentence for the caller. */
  message?: string;
}

const OK: Verdict = { allowed: true, rule: 'ok' };

/**
 * The order is the order a request meets the checks in: is the key still alive (revoked by a
 * rotation's end, then expired: 401s), is the tier paid (402), does it hold the scope (403).
 * So a dead key never learns what it could have done, and a trial account never learns scopes.
 */
export function checkAccess(principal: Principal, operation: Operation, nowMs: number): Verdict {
  if (principal.kind === 'key') {
    const standing = keyStanding(principal, nowMs);
    if (standing) return standing;
  }
  // A token's life (expiry, revocation, its grant) is decided when it is resolved, before this;
  // what is left is the tier rule a key meets.
  if (principal.kind === 'oauth' && !tierAllowsKeys(principal.ownerTier))
    return { allowed: false, rule: 'tier', message: tierRefusalMessage(principal.ownerTier) };
  if (operation.kind === 'authenticate') return OK;
  const need = needOf(operation);
  if (!need.known) {
    // Fail closed: an operation no row of the scope table covers is refused to everyone.
    return { allowed: false, rule: 'scope', message: `No scope covers ${describe(operation)}; it is refused.` };
  }
  if (principal.kind === 'session' || principal.kind === 'oauth') {
    // A person holds what their role grants, read from the membership on this very request; a
    // token acts for its person, so it never holds more than they do now.
    const lacking = need.scopes.find((s) => !roleGrants(principal.role, s));
    if (lacking)
      return {
        allowed: false,
        rule: 'scope',
        required_scope: lacking,
        message: `${principal.kind === 'oauth' ? "This access token's user's role" : 'Your role'} in this Company (${principal.role}) does not allow ${describe(operation)}: it needs ${lacking}.`,
      };
    if (principal.kind === 'session') return OK;
  }
  const granted = grantedScopes(principal);
  if (granted == null) return OK; // no scopes recorded: every scope (keys made before scopes existed too)
  const missing = need.scopes.find((s) => !granted.includes(s));
  if (!missing) return OK;
  const holder = principal.kind === 'oauth' ? 'This access token' : 'This key';
  return {
    allowed: false,
    rule: 'scope',
    required_scope: missing,
    message: `${holder} lacks the scope ${missing}, which ${describe(operation)} needs; its scopes: ${granted.join(', ') || '(none)'}.`,
  };
}

/** The scopes a key or token carries; null: every scope (a key made without scopes). A token always names its own. */
export function grantedScopes(principal: Exclude<Principal, { kind: 'session' }>): readonly string[] | null {
  return principal.kind === 'oauth' ? principal.scopes : (principal.key.scopes ?? null);
}

/** The key-only checks, before any operation: rotated past its overlap, expired, tier. */
function keyStanding({ key, ownerTier }: Extract<Principal, { kind: 'key' }>, nowMs: number): Verdict | null {
  if (key.retires_at && Date.parse(key.retires_at) <= nowMs) {
    return {
      allowed: false,
      rule: 'revoked',
      message: `This secret key was rotated (replaced by ${key.replaced_by}); its overlap ended at ${key.retires_at}.`,
    };
  }
  if (key.expires_at && Date.parse(key.expires_at) <= nowMs) {
    return { allowed: false, rule: 'expiry', message: `This secret key expired at ${key.expires_at}.` };
  }
  if (!tierAllowsKeys(ownerTier)) {
    return { allowed: false, rule: 'tier', message: tierRefusalMessage(ownerTier) };
  }
  return null;
}

function needOf(operation: Exclude<Operation, { kind: 'authenticate' }>): ScopeNeed {
  if (operation.kind === 'grant') return { known: true, scopes: [operation.grant] };
  return operation.kind === 'rest'
    ? routeNeed(operation.method, operation.route, operation.table)
    : toolNeed(operation.tool, operation.action);
}

function describe(operation: Operation): string {
  if (operation.kind === 'rest') return `${operation.method} ${operation.route}`;
  if (operation.kind === 'grant') return operation.what;
  if (operation.kind === 'mcp')
    return typeof operation.action === 'string'
      ? `tools/call ${operation.tool} ${operation.action}`
      : `tools/call ${operation.tool}`;
  return 'authentication';
}
