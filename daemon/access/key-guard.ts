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
import { refusalOf } from './refusal.js';

type GuardDeps = Pick<Deps, 'clock' | 'stores'>;

/** What the key guard (`Authorization: Bearer sk_…`, optional `X-Api-Key: ak_…`) resolves to, on `ctx.state.keyAuth`. */
export interface KeyAuth {
  user: UserRecord;
  company: CompanyRef;
  keyId: string;
  /** The key's record as the lookup read it: its scopes and expiry, for the permission check. */
  key: SecretKeyRecord;
  /** The tier of the Company's owner, which decides whether the key works (whoever made it). */
  ownerTier: Tier;
  /** The role its maker holds in the Company now (null once they left): shown by whoami, never checked. */
  makerRole: Role | null;
  /** True when a matching `X-Api-Key` was sent as well. */
  accountKey: boolean;
}

/** `last_used_at` is written at most this often per key, so using a key does not turn every call into a disk write. */
const TOUCH_EVERY_MS = 60_000;

const refuse = (message: string, code: string = ErrorCode.invalidKey) => unauthenticated(message, code);

/**
 * The key guard (spec §5.3): `Authorization: Bearer sk_…`, plus an optional `X-Api-Key: ak_…` that
 * must belong to the same user. Authentication first (401), then the tier gate (402), so a bad key
 * on a trial account is a 401. Sets `ctx.state.keyAuth`.
 */
export function requireKeys(deps: GuardDeps): Middleware {
  return async function keyGuard(ctx, next) {
    ctx.state.keyAuth = await authenticateKeys(deps, ctx);
    await next();
  };
}

export function keyAuthOf(ctx: Context): KeyAuth {
  const auth = ctx.state.keyAuth as KeyAuth | undefined;
  if (!auth) throw new Error(`route ${ctx.path} reads the key caller without requireKeys in front of it`);
  return auth;
}

/** Authenticates the key headers and applies the tier gate; throws the 401/402 answers. */
export async function authenticateKeys(deps: GuardDeps, ctx: Pick<Context, 'get' | 'ip'>): Promise<KeyAuth> {
  const secret = bearerToken(ctx);
  if (!secret)
    throw refuse('Authentication required: send Authorization: Bearer <secret key (sk_…)>.', ErrorCode.unauthorized);
  // The key with its user and Company in one lookup: one query on a database.
  const { key: sk, user, company, owner, makerRole } = await findSecretKey(deps, secret);
  if (!user || !company || !owner) throw refuse('This secret key is not valid: it was revoked or never existed.');

  const accountHeader = ctx.get('X-Api-Key').trim();
  const ak = accountHeader ? await findAccountKey(deps, accountHeader) : null;
  if (ak && ak.user_id !== sk.user_id) {
    throw refuse(
      'X-Api-Key belongs to another account than the secret key: send the account key of the same user, or none.',
      ErrorCode.accountKeyMismatch,
    );
  }

  // A rotated key past its overlap and an expired key are 401s, then the tier gate's 402: read
  // from the record the lookup already returned, so they cost no extra round trip.
  const now = deps.clock.now();
  const standing = checkAccess(keyPrincipal(user, sk, owner.tier), AUTHENTICATE, now);
  if (!standing.allowed) throw refusalOf(standing, owner.tier);

  // Checked here, not in an async helper: most calls write nothing and should not pay for a promise.
  if (touchDue(deps, 'secret', sk, now)) await deps.stores.keys.touch('secret', sk.id, isoAt(now), ctx.ip || null);
  if (ak && touchDue(deps, 'account', ak, now)) await deps.stores.keys.touch('account', ak.id, isoAt(now));
  return {
    user,
    company: { id: company.id, name: company.name, owner_id: company.owner_id },
    keyId: sk.id,
    key: sk,
    ownerTier: owner.tier,
    makerRole: makerRole ?? null,
    accountKey: ak !== null,
  };
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
async function findSecretKey(deps: GuardDeps, value: string) {
  const problem = keyProblem('secret', value);
  // A well-formed key has no dots, so only a malformed value can be a session token sent by mistake.
  if (problem && looksLikeJwt(value))
    throw refuse('This route takes a secret key (sk_…), not a session token.', ErrorCode.malformedKey);
  if (problem) throw refuse(describeKeyProblem('secret', problem), ErrorCode.malformedKey);
  const record = await deps.stores.keys.findSecretKeyWithOwner(hashKey(value));
  if (!record) throw refuse('This secret key is not valid: it was revoked or never existed.');
  return record;
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
