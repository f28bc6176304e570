import type { Context, Middleware } from 'koa';
import { describeKeyProblem, keyProblem } from '../../shared/keys.js';
import { ErrorCode } from '../../shared/errors.js';
import { looksLikeJwt } from '../auth/tokens.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import type { CompanyRef } from '../company/index.js';
import type { Role } from '../../shared/roles.js';
import type { Tier } from '../../shared/wire.js';
import type { UserRecord } from '../store/types.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';
import { unauthenticated } from '../domain-error.js';
import { claimTouch } from '../http/touch-throttle.js';
import { bearerToken } from '../http/bearer.js';
import { hashKey } from './key-material.js';
import { checkAccess, type Principal } from './permission.js';
import type { TokenPrincipal } from '../oauth/token-principal.js';
import { refusalOf } from './refusal.js';

type GuardDeps = Pick<Deps, 'clock' | 'stores'>;

/**
 * What the key guard (`Authorization: Bearer sk_…` or an OAuth access token, optional
 * `X-Api-Key: ak_…`) resolves to, on `ctx.state.keyAuth`.
 */
export interface KeyAuth {
  user: UserRecord;
  company: CompanyRef;
  /**
   * Who the permission check sees: the key (its record as the lookup read it: scopes, expiry),
   * or the access token's grant (its client and the scopes the user granted).
   */
  principal: Extract<Principal, { kind: 'key' | 'oauth' }>;
  /** The secret key's id; null for an OAuth access token. */
  keyId: string | null;
  /** The OAuth client and grant an access token speaks for; null for a secret key. */
  oauth: { clientId: string; grantId: string } | null;
  /** What per-credential limits (tool calls a minute) count by: the key, or the token's grant (one client, one Company). */
  limitId: string;
  /** The tier of the Company's owner, which decides whether the key or token works (whoever made it). */
  ownerTier: Tier;
  /** The role its maker (or the token's user) holds in the Company now (null once they left): shown by whoami. */
  makerRole: Role | null;
  /** True when a matching `X-Api-Key` was sent as well. */
  accountKey: boolean;
}

/** The key guard's answer for a secret key (the REST routes take no OAuth token). */
export type SecretKeyAuth = KeyAuth & { keyId: string; principal: Extract<Principal, { kind: 'key' }> };

/** Resolves an OAuth access token (daemon/oauth): null for one that is unknown, expired, revoked or for another resource. */
export type AccessTokenResolver = (token: string) => Promise<TokenPrincipal | null>;

/** `last_used_at` is written at most this often per key, so using a key does not turn every call into a disk write. */
const TOUCH_EVERY_MS = 60_000;

const refuse = (message: string, code: string = ErrorCode.invalidKey) => unauthenticated(message, code);

/**
 * The key guard (spec §5.3): `Authorization: Bearer sk_…`, plus an optional `X-Api-Key: ak_…` that
 * must belong to the same user. Authentication first (401), then the tier gate (402), so a bad key
 * on a trial account is a 401. Sets `ctx.state.keyAuth`.
 */
export function requireKeys(deps: GuardDeps, accessTokens?: AccessTokenResolver): Middleware {
  return async function keyGuard(ctx, next) {
    const token = accessTokens ? bearerToken(ctx) : null;
    ctx.state.keyAuth =
      accessTokens && token && looksLikeAccessToken(token)
        ? await authenticateAccessToken(deps, ctx, token, accessTokens)
        : await authenticateKeys(deps, ctx);
    await next();
  };
}

/**
 * The authorization server's opaque access tokens are 256 random bits in 43 base64url characters;
 * a secret key is 52 characters with its prefix, so the two never look alike, and anything else
 * goes to the key path, which explains what is wrong with it.
 */
const looksLikeAccessToken = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);

export function keyAuthOf(ctx: Context): KeyAuth {
  const auth = ctx.state.keyAuth as KeyAuth | undefined;
  if (!auth) throw new Error(`route ${ctx.path} reads the key caller without requireKeys in front of it`);
  return auth;
}

/** Authenticates the key headers and applies the tier gate; throws the 401/402 answers. */
export async function authenticateKeys(deps: GuardDeps, ctx: Pick<Context, 'get' | 'ip'>): Promise<SecretKeyAuth> {
  const secret = bearerToken(ctx);
  if (!secret)
    throw refuse('Authentication required: send Authorization: Bearer <secret key (sk_…)>.', ErrorCode.unauthorized);
  // The key with its user and Company in one lookup: one query on a database. The store's own
  // promise is awaited here (no async helper around it): one promise per request, not three.
  const found = await findSecretKey(deps, secret);
  if (!found) throw refuse('This secret key is not valid: it was revoked or never existed.');
  const { key: sk, user, company, owner, makerRole } = found;
  if (!user || !company || !owner) throw refuse('This secret key is not valid: it was revoked or never existed.');

  // Without an X-Api-Key header (most calls) nothing is awaited for it.
  const ak = ctx.get('X-Api-Key') ? await matchingAccountKey(deps, ctx, sk.user_id, 'the secret key') : null;

  // A rotated key past its overlap and an expired key are 401s, then the tier gate's 402: read
  // from the record the lookup already returned, so they cost no extra round trip.
  const now = deps.clock.now();
  const principal = { kind: 'key', user, key: sk, ownerTier: owner.tier } as const;
  const standing = checkAccess(principal, AUTHENTICATE, now);
  if (!standing.allowed) throw refusalOf(standing, owner.tier);

  // Checked here, not in an async helper: most calls write nothing and should not pay for a promise.
  if (touchDue(deps, 'secret', sk, now)) await deps.stores.keys.touch('secret', sk.id, isoAt(now), ctx.ip || null);
  if (ak && touchDue(deps, 'account', ak, now)) await deps.stores.keys.touch('account', ak.id, isoAt(now));
  return {
    user,
    company: { id: company.id, name: company.name, owner_id: company.owner_id },
    principal,
    keyId: sk.id,
    oauth: null,
    limitId: sk.id,
    ownerTier: owner.tier,
    makerRole: makerRole ?? null,
    accountKey: ak !== null,
  };
}

/**
 * An OAuth access token where a secret key goes: resolved against the store on every request (a
 * revoked token or grant is refused on its next request, on every daemon), then the same checks a
 * key meets, in the same order: the account key if sent, the tier gate (402), and later the scopes
 * of the one permission check. The grant's Company must still be its user's.
 */
async function authenticateAccessToken(
  deps: GuardDeps,
  ctx: Pick<Context, 'get' | 'ip'>,
  token: string,
  resolve: AccessTokenResolver,
): Promise<KeyAuth> {
  const dead = () =>
    refuse(
      'This access token is not valid: it expired, was revoked, or was issued for another resource. Sign in again.',
      ErrorCode.invalidToken,
    );
  const found = await resolve(token);
  if (!found) throw dead();
  // The resolver read the Company and the user's role in it on this request (a member no longer is none).
  const company = found.company;
  const [user, owner] = await Promise.all([
    deps.stores.users.findById(found.userId),
    company.owner_id === found.userId ? undefined : deps.stores.users.findById(company.owner_id),
  ]);
  const ownerTier = company.owner_id === found.userId ? user?.tier : owner?.tier;
  if (!user || !ownerTier) throw dead();
  const ak = ctx.get('X-Api-Key') ? await matchingAccountKey(deps, ctx, user.id, 'the access token') : null;
  const principal = {
    kind: 'oauth',
    user,
    clientId: found.clientId,
    scopes: found.scopes,
    role: found.role,
    ownerTier,
  } as const;
  const standing = checkAccess(principal, AUTHENTICATE, deps.clock.now());
  if (!standing.allowed) throw refusalOf(standing, ownerTier);
  if (ak && touchDue(deps, 'account', ak, deps.clock.now()))
    await deps.stores.keys.touch('account', ak.id, isoAt(deps.clock.now()));
  return {
    user,
    company: { id: company.id, name: company.name, owner_id: company.owner_id },
    principal,
    keyId: null,
    oauth: { clientId: found.clientId, grantId: found.grantId },
    limitId: `oauth:${found.grantId}`,
    ownerTier,
    makerRole: found.role,
    accountKey: ak !== null,
  };
}

/** The optional `X-Api-Key`: when sent, it must be a live account key of the same user as the credential. */
async function matchingAccountKey(deps: GuardDeps, ctx: Pick<Context, 'get'>, userId: string, credential: string) {
  const accountHeader = ctx.get('X-Api-Key').trim();
  const ak = accountHeader ? await findAccountKey(deps, accountHeader) : null;
  if (ak && ak.user_id !== userId) {
    throw refuse(
      `X-Api-Key belongs to another account than ${credential}: send the account key of the same user, or none.`,
      ErrorCode.accountKeyMismatch,
    );
  }
  return ak;
}

const AUTHENTICATE = { kind: 'authenticate' } as const;

export const keyPrincipal = (user: UserRecord, key: SecretKeyRecord, ownerTier: Tier): Principal => ({
  kind: 'key',
  user,
  key,
  ownerTier,
});

/**
 * The format is checked before any lookup, so a malformed value (a JWT, a truncated key, the
 * wrong prefix) never reaches the store. The lookup is by SHA-256: its timing can only reveal
 * something about a hash, not about the key.
 */
function findSecretKey(deps: GuardDeps, value: string) {
  const problem = keyProblem('secret', value);
  // A well-formed key has no dots, so only a malformed value can be a session token sent by mistake.
  if (problem && looksLikeJwt(value))
    throw refuse('This route takes a secret key (sk_…), not a session token.', ErrorCode.malformedKey);
  if (problem) throw refuse(describeKeyProblem('secret', problem), ErrorCode.malformedKey);
  return deps.stores.keys.findSecretKeyWithOwner(hashKey(value));
}

async function findAccountKey(deps: GuardDeps, value: string) {
  if (looksLikeJwt(value))
    throw refuse('X-Api-Key takes an account key (ak_…), not a session token.', ErrorCode.malformedKey);
  const problem = keyProblem('account', value);
  if (problem) throw refuse(`X-Api-Key: ${describeKeyProblem('account', problem)}`, ErrorCode.malformedKey);
  const record = await deps.stores.keys.findAccountKeyByHash(hashKey(value));
  if (!record) throw refuse('This account key is not valid: it was rotated or never existed.');
  return record;
}

/** Whether this call writes the key's `last_used_at`: it is a minute old, and no other request of this daemon is writing it. */
function touchDue(
  deps: GuardDeps,
  kind: 'secret' | 'account',
  key: { id: string; last_used_at: string | null },
  now: number,
): boolean {
  if (key.last_used_at && now - Date.parse(key.last_used_at) < TOUCH_EVERY_MS) return false;
  return claimTouch(deps.stores, `${kind}:${key.id}`, now, TOUCH_EVERY_MS);
}
