/**
 * Storage of the second factors and passwordless logins: one-time challenges
 * (partial TOTP logins, SIWE nonces, WebAuthn challenges) and registered passkeys.
 */

export type ChallengeKind = 'partial_login' | 'siwe_nonce' | 'webauthn_register' | 'webauthn_login';

/** A one-time server secret. Only its SHA-256 is stored; the row dies on first use or at expiry. */
export interface ChallengeRecord {
  id: string;
  kind: ChallengeKind;
  /** Whom it is bound to: a user id, a wallet address, or null (a discoverable passkey login). */
  subject: string | null;
  secret_hash: string;
  /** Tries counted so far (partial logins allow 5). */
  tries: number;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
  data?: Record<string, unknown>;
}

export interface ChallengeStore {
  create(record: ChallengeRecord): Promise<void>;
  /** The live, unexpired row of `kind` whose hash matches, ended in the same atomic step; null otherwise. */
  consume(kind: ChallengeKind, secretHash: string, nowIso: string): Promise<ChallengeRecord | null>;
  /**
   * Counts one try on a live, unexpired row (atomically) and returns it; null when the row is dead,
   * expired, or already had `maxTries` tries.
   */
  countTry(id: string, kind: ChallengeKind, nowIso: string, maxTries: number): Promise<ChallengeRecord | null>;
  /** Ends a live row; false when it was no longer live (someone else ended it first). */
  end(id: string, nowIso: string): Promise<boolean>;
}

/** A WebAuthn credential registered to a user. The public key is not a secret. */
export interface PasskeyRecord {
  /** The credential id, base64url (as the authenticator gave it). */
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string[];
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyStore {
  /** False when the credential id is registered already (to anyone): an id registers once. */
  add(record: PasskeyRecord): Promise<boolean>;
  find(id: string): Promise<PasskeyRecord | undefined>;
  listByUser(userId: string): Promise<PasskeyRecord[]>;
  /** Moves the counter forward, atomically: false (and no change) unless `counter` is above the stored one. */
  advanceCounter(id: string, counter: number, atIso: string): Promise<boolean>;
  remove(id: string, userId: string): Promise<boolean>;
}

/** Which user an Ethereum address (lower-cased) signs in as. One address, one account. */
export interface WalletLink {
  address: string;
  user_id: string;
  created_at: string;
}

export interface WalletStore {
  findUserId(address: string): Promise<string | undefined>;
  /** False when the address belongs to an account already (atomic, so two racing signups get one account). */
  link(address: string, userId: string, atIso: string): Promise<boolean>;
}
