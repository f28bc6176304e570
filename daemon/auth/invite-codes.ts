import { createHash } from 'node:crypto';
import type { Random } from '../random.js';

// Crockford's base32: no I, L, O or U, so a code read aloud or retyped survives.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A fresh invite code, `XXXX-XXXX-XXXX-XXXX`: 80 random bits. */
export function generateInviteCode(random: Random): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i > 0 && i % 4 === 0) out += '-';
    out += ALPHABET[random.int(0, 32)];
  }
  return out;
}

/** Only the hash is stored. Case, spaces and dashes do not matter when the code is typed back. */
export function hashInviteCode(code: string): string {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`invite:${normalized}`).digest('hex');
}

/**
 * A Company invitation's code is made like an invite code (80 random bits: guessing one in its 7
 * days is hopeless) and hashed with its own prefix, so an invitation never passes for a signup invite.
 */
export function hashInvitationCode(code: string): string {
  const normalized = code.toUpperCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(`invitation:${normalized}`).digest('hex');
}
