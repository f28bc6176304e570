import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * HS256 JWTs with node:crypto: the daemon's one JWT code path, signing and verifying. A library's
 * verify (jsonwebtoken's decodes the token twice, re-imports the key and builds error objects for
 * every "no") cost about a tenth of an authenticated request's CPU; HS256 is one HMAC, and the
 * rules below are all of what a verifier must check for a token only this daemon signs. The tests
 * hold both directions against jsonwebtoken (tests/daemon/auth/jwt-hs256.test.ts). Verify checks:
 *
 * - exactly three base64url parts, the whole token at most MAX_TOKEN_CHARS;
 * - the header is a JSON object whose `alg` is exactly "HS256" — the algorithm is pinned, so
 *   `alg: none`, an empty signature or an RS/HS confusion never reaches the signature check;
 *   a header with `crit` is refused (we implement no critical extension);
 * - the signature is the HMAC-SHA256 of `header.payload`, compared in constant time on its
 *   canonical base64url form (43 characters), so a re-encoded or padded signature is refused too;
 * - the payload is a JSON object; `exp` present and a number, and now < exp; `nbf`, when present,
 *   a number not in the future (same rules and clock as jsonwebtoken's, in whole seconds).
 *
 * Returns the payload, or null for every way a token can be wrong: callers answer all of them alike.
 */
export const MAX_TOKEN_CHARS = 8192;

const PART = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_CHARS = 43; // 32 bytes of HMAC-SHA256 in unpadded base64url

/** The one header this daemon signs with (the bytes jsonwebtoken writes for HS256). */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** `header.payload.signature` for `claims`, signed with HMAC-SHA256 under `secret`. */
export function signHs256(secret: Buffer, claims: Record<string, unknown>): string {
  const signed = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signed}.${createHmac('sha256', keyFor(secret)).update(signed).digest('base64url')}`;
}

export function verifyHs256(secret: Buffer, token: string, nowSeconds: number): Record<string, unknown> | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return null;
  const firstDot = token.indexOf('.');
  const secondDot = token.indexOf('.', firstDot + 1);
  if (firstDot <= 0 || secondDot <= firstDot + 1 || token.indexOf('.', secondDot + 1) !== -1) return null;
  const header = token.slice(0, firstDot);
  const payload = token.slice(firstDot + 1, secondDot);
  const signature = token.slice(secondDot + 1);
  if (!PART.test(header) || !PART.test(payload) || signature.length !== SIGNATURE_CHARS || !PART.test(signature))
    return null;

  if (header !== lastGoodHeader) {
    const head = parseObject(header);
    // `crit` names extensions the recipient MUST understand (RFC 7515 §4.1.11); we understand none.
    if (head?.alg !== 'HS256' || 'crit' in head) return null;
    lastGoodHeader = header;
  }

  const expected = createHmac('sha256', keyFor(secret)).update(token.slice(0, secondDot)).digest('base64url');
  if (!timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature, 'latin1'))) return null;

  const claims = parseObject(payload);
  if (!claims) return null;
  if (typeof claims.exp !== 'number' || nowSeconds >= claims.exp) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || nowSeconds < claims.nbf)) return null;
  return claims;
}

/**
 * The last header that decoded to `alg: HS256`. Every token this daemon signs has the same header,
 * so it is decoded once, not per request. The header is public (it is not compared against
 * anything secret), so remembering it reveals nothing.
 */
let lastGoodHeader = '';

/** The secret imported as a KeyObject once, not on every HMAC. */
const keys = new WeakMap<Buffer, KeyObject>();
function keyFor(secret: Buffer): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(secret)));
  return key;
}

/** A base64url part decoded as a JSON object (not an array, not a primitive); null otherwise. */
function parseObject(part: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
