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
 * Who is asking: a user's own session, a secret key, or an OAuth access token (its grant's user
 * and the scopes the user granted the client). A Company role will join as a kind of its own.
 */
export type Principal =
  | { kind: 'session'; user: UserRecord }
  | { kind: 'key'; user: UserRecord; key: SecretKeyRecord }
  | { kind: 'oauth'; user: UserRecord; clientId: string; scopes: readonly string[] };

/** What is asked: a Company route by method and registered pattern, or an MCP tool call. */
export type Operation =
  | { kind: 'rest'; method: string; route: string; table?: RouteScopeTable }
  | { kind: 'mcp'; tool: string; action?: unknown }
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
  if (principal.kind === 'oauth' && !tierAllowsKeys(principal.user.tier))
    return { allowed: false, rule: 'tier', message: tierRefusalMessage(principal.user.tier) };
  if (operation.kind === 'authenticate') return OK;
  const need = needOf(operation);
  if (!need.known) {
    // Fail closed: an operation no row of the scope table covers is refused to everyone.
    return { allowed: false, rule: 'scope', message: `No scope covers ${describe(operation)}; it is refused.` };
  }
  if (principal.kind === 'session') return OK; // a user's own session: every scope of their own Companies
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
function keyStanding({ user, key }: Extract<Principal, { kind: 'key' }>, nowMs: number): Verdict | null {
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
  if (!tierAllowsKeys(user.tier)) {
    return { allowed: false, rule: 'tier', message: tierRefusalMessage(user.tier) };
  }
  return null;
}

function needOf(operation: Exclude<Operation, { kind: 'authenticate' }>): ScopeNeed {
  return operation.kind === 'rest'
    ? routeNeed(operation.method, operation.route, operation.table)
    : toolNeed(operation.tool, operation.action);
}

function describe(operation: Operation): string {
  if (operation.kind === 'rest') return `${operation.method} ${operation.route}`;
  if (operation.kind === 'mcp')
    return typeof operation.action === 'string'
      ? `tools/call ${operation.tool} ${operation.action}`
      : `tools/call ${operation.tool}`;
  return 'authentication';
}
