import { createHmac, timingSafeEqual } from 'node:crypto';
import { generateSecret, generateSync, generateURI } from 'otplib';
import { createSealer, type Sealer } from '../../store/sealer.js';
import type { Random } from '../../random.js';
import type { UserRecord } from '../../store/types.js';

/**
 * TOTP as SECURITY.md fixes it: SHA-1, 6 digits, 30 s steps, ±1 step of drift. The last accepted
 * step is stored on the user and only a later one is accepted, so a code read over a shoulder (or
 * replayed by a phishing proxy) is worthless once used.
 */
const STEP_SECONDS = 30;

/** What the user record holds under `totp`. The secret is sealed: SECURITY.md allows no plaintext key at rest. */
export interface TotpState {
  secret_sealed: string;
  /** Null while the enrolment waits for its first code. */
  enabled_at: string | null;
  /** A pending enrolment dies at this time. */
  pending_until: string | null;
  last_step: number | null;
  /** SHA-256 of each one-time recovery code. */
  recovery: { hash: string; used_at: string | null }[];
}

export const totpOf = (user: UserRecord): TotpState | null => (user.totp as TotpState | undefined) ?? null;
export const totpEnabled = (user: UserRecord) => Boolean(totpOf(user)?.enabled_at);

/** A fresh 160-bit secret (RFC 4226 recommends 160 bits; otplib 13 wants at least 16 bytes), base32. */
export const newTotpSecret = () => generateSecret({ length: 20 });

export const otpauthUri = (issuer: string, account: string, secret: string) =>
  generateURI({ issuer, label: account, secret });

/** The secret is sealed with a key derived from the code key, so the same file-mode-0600 secret protects both. */
export function totpSealer(codeKey: Buffer): Sealer {
  return createSealer(createHmac('sha256', codeKey).update('totp-secret-seal').digest());
}

/**
 * The time step `code` is valid for, within ±1 step of now and after `lastStep`; null otherwise.
 * Codes are compared in constant time.
 */
export function matchTotpStep(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(nowMs / 1000 / STEP_SECONDS);
  let found: number | null = null;
  for (const step of [current - 1, current, current + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    const expected = generateSync({ secret, epoch: step * STEP_SECONDS });
    if (timingSafeEqual(Buffer.from(expected), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The code an authenticator app shows at `nowMs` (tests and `svc` helpers). */
export const totpCodeAt = (secret: string, nowMs: number) =>
  generateSync({ secret, epoch: Math.floor(nowMs / 1000 / STEP_SECONDS) * STEP_SECONDS });

// Crockford's base32 lower-cased: no i, l, o or u, so a code copied from paper survives.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_CODE_COUNT = 10;

/** Ten recovery codes `xxxxx-xxxxx` (50 random bits each); only their hashes are kept. */
export function newRecoveryCodes(random: Random, codeKey: Buffer): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = '';
    for (let i = 0; i < 10; i++) s += (i === 5 ? '-' : '') + ALPHABET[random.int(0, 32)];
    return s;
  });
  return { codes, hashes: codes.map((code) => hashRecoveryCode(codeKey, code)) };
}

/**
 * Case, spaces and dashes do not matter when a recovery code is typed back. Keyed (HMAC with the
 * code key), as e-mailed codes are: 50 bits under a plain hash could be brute-forced offline from
 * a copy of the users document.
 */
export const hashRecoveryCode = (codeKey: Buffer, code: string) =>
  createHmac('sha256', codeKey)
    .update(`recovery:${code.toLowerCase().replace(/[\s-]/g, '')}`)
    .digest('hex');

/**
 * The unused recovery code whose keyed hash is `hash`, or undefined. Every stored hash is compared
 * in constant time and the loop never stops early, so the answer time tells neither how much of a
 * hash matched nor which of the ten codes (or a used one) was hit.
 */
export function findRecoveryCode(
  recovery: TotpState['recovery'],
  hash: string,
): TotpState['recovery'][number] | undefined {
  const typed = Buffer.from(hash, 'hex');
  let found: TotpState['recovery'][number] | undefined;
  for (const entry of recovery) {
    const stored = Buffer.from(entry.hash, 'hex');
    const same = stored.length === typed.length && timingSafeEqual(stored, typed);
    if (same && !entry.used_at && !found) found = entry;
  }
  return found;
}

export const looksLikeRecoveryCode = (code: string) => /^[0-9a-z]{5}-?[0-9a-z]{5}$/i.test(code.trim());
