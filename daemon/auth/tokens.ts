import { signHs256, verifyHs256 } from './jwt-hs256.js';

/**
 * Session JWTs (spec §2.5 + SECURITY.md): HS256 with the data folder's 256-bit secret, the
 * algorithm pinned on verify (so `alg: none` or an RS/HS confusion cannot pass), `exp` required.
 * Claims: user_id, email, iat, exp, plus `sid` (the session row every request checks) and `typ`.
 */
export type TokenType = 'session' | 'unverified' | 'partial';

export interface TokenClaims {
  user_id: string;
  /** Null for a wallet-only account with no e-mail yet (docs/auth.md). */
  email: string | null;
  sid: string;
  typ: TokenType;
  iat: number;
  exp: number;
  /** The login method that made the session (RFC 8176 style: pwd, otp, email, wallet, passkey). */
  amr?: string[];
}

export function signToken(
  secret: Buffer,
  claims: Omit<TokenClaims, 'iat' | 'exp'>,
  nowMs: number,
  ttlMs: number,
): string {
  const iat = Math.floor(nowMs / 1000);
  return signHs256(secret, { ...claims, iat, exp: iat + Math.floor(ttlMs / 1000) });
}

/**
 * The claims of a well-formed, correctly signed, unexpired token; null for anything else.
 * Verified by jwt-hs256.ts (node:crypto; HS256 pinned, `crit` refused, exp required, constant-time
 * compare): this runs on every authenticated request.
 */
export function verifyToken(secret: Buffer, token: string, nowMs: number): TokenClaims | null {
  const c = verifyHs256(secret, token, Math.floor(nowMs / 1000)) as Partial<TokenClaims> | null;
  const valid =
    c !== null &&
    typeof c.user_id === 'string' &&
    typeof c.sid === 'string' &&
    (c.typ === 'session' || c.typ === 'unverified' || c.typ === 'partial') &&
    typeof c.exp === 'number' &&
    typeof c.iat === 'number';
  return valid ? (c as TokenClaims) : null;
}

/** Token-shaped strings only: three base64url parts. Keeps `sk_…` and junk away from the JWT parser. */
export const looksLikeJwt = (value: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
