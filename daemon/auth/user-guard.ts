import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { verifyToken, type TokenClaims } from './tokens.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import type { SessionRecord, UserRecord } from '../store/types.js';
import { forbidden, unauthenticated } from '../domain-error.js';
import { bearerToken } from '../http/bearer.js';
import { claimTouch } from '../http/touch-throttle.js';

/** Who is calling, once `requireUser` let the request through. */
export interface UserAuth {
  user: UserRecord;
  session: SessionRecord;
  claims: TokenClaims;
}

export interface RequireUserOptions {
  /** Verify, resend-code and GET /api/me accept an unverified signup token; nothing else does. */
  allowUnverified?: boolean;
}

/** `last_seen_at` is written at most this often, so reading does not turn every request into a disk write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The user guard: `Authorization: Bearer <JWT>` → a live session row → the user.
 * Every request loads the row named by `sid` (no cache), so a revoked session fails on its very
 * next request. Partial (TOTP-pending) tokens are refused here: they only work at /api/auth/totp/login.
 */
export function requireUser(
  deps: Pick<Deps, 'clock' | 'stores' | 'secrets'>,
  options: RequireUserOptions = {},
): Middleware {
  return async function userGuard(ctx, next) {
    // The token is checked first (no lookup for a bad one), then the store's own promise is
    // awaited here: one promise per request, not one per helper around it.
    const claims = verifiedClaims(deps, ctx);
    const found = await deps.stores.sessions.findWithUser(claims.sid);
    const now = deps.clock.now();
    const auth = liveSession(found, claims, now, options);
    ctx.state.auth = auth;
    const { session } = auth;
    if (
      now - Date.parse(session.last_seen_at) >= TOUCH_EVERY_MS &&
      claimTouch(deps.stores, session.id, now, TOUCH_EVERY_MS)
    )
      await deps.stores.sessions.touch(session.id, isoAt(now));
    await next();
  };
}

/** The caller set by `requireUser`; throws when the route forgot the guard. */
export function userOf(ctx: Context): UserAuth {
  const auth = ctx.state.auth as UserAuth | undefined;
  if (!auth) throw new Error(`route ${ctx.path} reads the user without requireUser in front of it`);
  return auth;
}

/** The session token's claims, signature and expiry checked; throws the 401 answers. */
function verifiedClaims(deps: Pick<Deps, 'clock' | 'secrets'>, ctx: Context): TokenClaims {
  const token = bearerToken(ctx);
  if (!token)
    throw unauthenticated('Authentication required: send Authorization: Bearer <token>.', ErrorCode.unauthorized);
  // verifyToken refuses anything that is not three base64url parts (a key, junk) before any HMAC.
  const claims = verifyToken(deps.secrets.jwtSecret, token, deps.clock.now());
  if (!claims) throw unauthenticated('The token is invalid or expired. Log in again.', ErrorCode.invalidToken);
  if (claims.typ === 'partial') {
    throw unauthenticated(
      'This token only completes a two-factor login at /api/auth/totp/login.',
      ErrorCode.invalidToken,
    );
  }
  return claims;
}

/** The session row read on this request, checked: live, the token's user's, not revoked or expired. */
function liveSession(
  found: { session: SessionRecord; user: UserRecord | undefined } | undefined,
  claims: TokenClaims,
  now: number,
  options: RequireUserOptions,
): UserAuth {
  const session = found?.session;
  const user = found?.user;
  if (!session || session.user_id !== claims.user_id || session.revoked_at || Date.parse(session.expires_at) <= now) {
    throw unauthenticated('This session has ended. Log in again.', ErrorCode.sessionRevoked);
  }
  if (!user) throw unauthenticated('This session has ended. Log in again.', ErrorCode.sessionRevoked);
  if ((claims.typ === 'unverified' || session.kind === 'unverified') && !options.allowUnverified) {
    throw forbidden(
      'Verify your e-mail address first: enter the 6-digit code we sent (POST /api/auth/verify).',
      ErrorCode.verificationPending,
    );
  }
  return { user, session, claims };
}
