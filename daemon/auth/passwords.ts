import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ScryptParams } from '../config.js';
import { rateLimited } from '../domain-error.js';
import { createHashPool, PoolBusy, type HashPool, type HashPoolOptions } from './hash-pool.js';

/**
 * Password hashing with scrypt (SECURITY.md). The parameters are stored with the hash, so raising
 * the default cost later still verifies old hashes; input is NFKC-normalised so the same password
 * typed on another keyboard layout or OS hashes the same.
 *
 * Stored form: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`.
 */
const KEY_LENGTH = 32;
const PASSWORD_MIN = 12;
const PASSWORD_MAX = 128;

export const normalizePassword = (password: string) => password.normalize('NFKC');

/** Why a new password is refused, or null. Length only: NIST 800-63B advises against composition rules. */
export function passwordProblem(password: string): string | null {
  const length = [...normalizePassword(password)].length;
  if (length < PASSWORD_MIN) return `The password must be at least ${PASSWORD_MIN} characters long.`;
  if (length > PASSWORD_MAX) return `The password must be at most ${PASSWORD_MAX} characters long.`;
  return null;
}

export async function hashPassword(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/**
 * True when `password` matches `stored`. Over-long input is refused before any hashing, so a
 * megabyte "password" cannot buy a megabyte of scrypt work.
 */
export async function verifyPassword(password: string, stored: string, maxmem: number): Promise<boolean> {
  if ([...password].length > PASSWORD_MAX * 4) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64');
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p, maxmem });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * True when `stored` was made weaker than `params` asks: a lower N, r or p, or a shorter salt or
 * hash (a hash made under a test setting, or before the default cost was raised). The next login
 * that proves the password rehashes it (password-upgrade.ts). A stronger stored hash is kept as is.
 */
export function isWeakerHash(stored: string, params: ScryptParams): boolean {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  return N < params.N || r < params.r || p < params.p || salt.length < 16 || hash.length < KEY_LENGTH;
}

/**
 * A hash to verify against when the e-mail is unknown, so an unknown account costs the same scrypt
 * work as a known one and the answer time does not tell them apart. Made once per cost setting.
 */
const dummies = new Map<string, Promise<string>>();
export function dummyHash(params: ScryptParams): Promise<string> {
  const key = `${params.N}/${params.r}/${params.p}`;
  let hash = dummies.get(key);
  if (!hash) dummies.set(key, (hash = hashPassword(randomBytes(16).toString('hex'), params)));
  return hash;
}

/**
 * SECURITY.md: two hashing threads of their own (hash-pool.ts says why not libuv's), and at most 32
 * logins waiting for one, so a burst of logins cannot pile up memory.
 */
export const DEFAULT_HASH_POOL: HashPoolOptions = { threads: 2, queue: 32 };

/** One pool per process: the bound is on the machine's memory and cores, whatever the number of apps. */
let pool: HashPool = createHashPool(DEFAULT_HASH_POOL);

/** Replaces the process's hashing pool (main.ts from Config; tests with a small one). The old pool finishes its jobs. */
export function configureHashPool(options: HashPoolOptions): void {
  const old = pool;
  pool = createHashPool(options);
  void old.close();
}

async function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  try {
    return await pool.derive({
      password: normalizePassword(password),
      salt,
      keyLength: KEY_LENGTH,
      N: params.N,
      r: params.r,
      p: params.p,
      maxmem: params.maxmem,
    });
  } catch (err) {
    if (err instanceof PoolBusy)
      throw rateLimited(err.retryAfterSeconds, 'Too many password checks are waiting. Try again in a moment.');
    throw err;
  }
}
