import { createHash, hash } from 'node:crypto';
import { formatKey, maskKey, type KeyKind } from '../../shared/keys.js';
import type { Random } from '../random.js';

export interface NewKey {
  /** The whole key: returned to the caller once, never stored. */
  key: string;
  /** What is stored: the SHA-256 of the whole key. */
  hash: string;
  /** What lists show. */
  prefix: string;
}

/**
 * A fresh key from 32 CSPRNG bytes. A plain SHA-256 is the right hash here (unlike passwords):
 * the key carries 256 random bits, so there is nothing to brute-force and no need for a slow KDF.
 */
export function generateKey(random: Random, kind: KeyKind): NewKey {
  const key = formatKey(kind, random.bytes(32));
  return { key, hash: hashKey(key), prefix: maskKey(key) };
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}

/**
 * crypto.hash (Node 20.12+) hashes in one call, about a seventh of the cost of a Hash object for a
 * key-sized input (it runs on every key-authenticated request); older Node 20 builds use the object.
 */
const sha256Hex: (text: string) => string =
  typeof hash === 'function'
    ? (text) => hash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text, 'utf8').digest('hex');
