import { createPrivateKey, hkdfSync, type JsonWebKey } from 'node:crypto';

/** PKCS#8 header of an Ed25519 private key (RFC 8410); the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The authorization server's keys, derived from the deployment's signing secret, so every daemon
 * of a deployment (team mode shares the secret through the database) signs and publishes the same
 * key with nothing more to store. HKDF with a label of its own keeps these keys independent of
 * the session tokens' HMAC key they come from.
 */
export function deriveOAuthKeys(secret: Buffer): { signingKey: JsonWebKey; cookieKeys: string[] } {
  const seed = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'svc oauth signing key v1', 32));
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = key.export({ format: 'jwk' });
  const cookie = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'svc oauth cookie key v1', 32));
  return { signingKey: { ...jwk, alg: 'EdDSA', use: 'sig', kid: 'svc-1' }, cookieKeys: [cookie.toString('base64url')] };
}
