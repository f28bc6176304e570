import { crc32 } from 'node:zlib';

/**
 * The `ak_` / `sk_` key format (SECURITY.md), shared by the daemon and the CLI:
 *
 *   <prefix> <body: 43 base62 characters> <checksum: 6 base62 characters>
 *
 * - body: 32 random bytes read as one big-endian integer, written in base62 (0-9A-Za-z) and
 *   left-padded with '0' to 43 characters (62^43 > 2^256, so every 32-byte value fits);
 * - checksum: CRC-32 (IEEE, as zlib computes it) of the ASCII prefix + body, in base62, left-padded
 *   to 6 characters (62^6 > 2^32).
 *
 * A whole key is 52 characters. The checksum is not a secret and proves nothing about who holds
 * the key: it only lets both sides refuse a mistyped or truncated key before any lookup, and lets
 * secret scanners recognise a real key.
 */
export type KeyKind = 'account' | 'secret';

export const KEY_PREFIX: Record<KeyKind, string> = { account: 'ak_', secret: 'sk_' };
export const KEY_BODY_LENGTH = 43;
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = 3 + KEY_BODY_LENGTH + KEY_CHECKSUM_LENGTH;
/** Characters of the body shown by `masked`: enough to tell keys apart, far too few to guess the rest. */
export const KEY_VISIBLE_BODY = 6;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62 = /^[0-9A-Za-z]+$/;

export function encodeBase62(value: bigint, width: number): string {
  let out = '';
  let n = value;
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

export function checksumOf(prefixAndBody: string): string {
  return encodeBase62(BigInt(crc32(Buffer.from(prefixAndBody, 'ascii'))), KEY_CHECKSUM_LENGTH);
}

/** Builds a key from 32 random bytes (the daemon passes a CSPRNG's output). */
export function formatKey(kind: KeyKind, randomBytes: Uint8Array): string {
  if (randomBytes.length !== 32) throw new Error('a key needs exactly 32 random bytes');
  const body = encodeBase62(BigInt('0x' + Buffer.from(randomBytes).toString('hex')), KEY_BODY_LENGTH);
  const head = KEY_PREFIX[kind] + body;
  return head + checksumOf(head);
}

export type KeyProblem = 'wrong_prefix' | 'wrong_length' | 'bad_characters' | 'bad_checksum';

/** Why a string is not a well-formed key of this kind, or null when it is. Pure: no lookup. */
export function keyProblem(kind: KeyKind, key: string): KeyProblem | null {
  if (!key.startsWith(KEY_PREFIX[kind])) return 'wrong_prefix';
  if (key.length !== KEY_LENGTH) return 'wrong_length';
  const rest = key.slice(3);
  if (!BASE62.test(rest)) return 'bad_characters';
  const head = key.slice(0, 3 + KEY_BODY_LENGTH);
  // A 43-character body can exceed 2^256; such a value was never generated, but the checksum still decides.
  if (checksumOf(head) !== key.slice(3 + KEY_BODY_LENGTH)) return 'bad_checksum';
  return null;
}

export const isWellFormedKey = (kind: KeyKind, key: string) => keyProblem(kind, key) === null;

/** `sk_4fGh2k…`: the prefix and the first characters of the body, what lists and logs may show. */
export function maskKey(key: string): string {
  return key.slice(0, 3 + KEY_VISIBLE_BODY) + '…';
}

export function describeKeyProblem(kind: KeyKind, problem: KeyProblem): string {
  const name = kind === 'secret' ? 'secret key' : 'account key';
  switch (problem) {
    case 'wrong_prefix':
      return `This is not a ${name}: it must start with ${KEY_PREFIX[kind]}.`;
    case 'wrong_length':
      return `This ${name} is ${KEY_LENGTH} characters long when whole; it looks truncated or padded.`;
    case 'bad_characters':
      return `This ${name} holds characters a key never has (only 0-9, A-Z and a-z follow the prefix).`;
    case 'bad_checksum':
      return `This ${name} fails its checksum: it was mistyped or altered.`;
  }
}
