/**
 * Storage interfaces for Companies and access keys, beside the others in types.ts.
 * Keys are stored only as the SHA-256 of the whole key (SECURITY.md): a leaked data folder
 * yields no usable key.
 */

export interface CompanyRecord {
  id: string;
  name: string;
  owner_id: string;
  created_at: string;
}

export interface CompanyStore {
  /** Fails with StoreConflict('company_name_taken') when the owner has a Company of that name (case-insensitive). */
  create(company: CompanyRecord): Promise<CompanyRecord>;
  findById(id: string): Promise<CompanyRecord | undefined>;
  /** The owner's Companies, oldest first. */
  listByOwner(ownerId: string): Promise<CompanyRecord[]>;
  /** Every Company, oldest first (the daemon opens each runtime at start so schedules run). */
  list(): Promise<CompanyRecord[]>;
}

export interface SecretKeyRecord {
  id: string;
  user_id: string;
  company_id: string;
  name: string;
  /** Hex SHA-256 of the whole `sk_` key. */
  hash: string;
  /** `sk_4fGh2k…`: what lists show. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  /**
   * The fields below came with scoped, expiring keys. A record written before them has none of
   * them and reads as it always worked: every scope, no expiry, never rotated (see key-standing.ts).
   */
  /** The scopes granted (`events:read`…); null or absent: every scope. */
  scopes?: string[] | null;
  /** When the key stops working; null or absent: never. */
  expires_at?: string | null;
  /** The address of the request that last wrote `last_used_at`. */
  last_used_ip?: string | null;
  /** On the old key of a rotation: the end of its overlap, when it stops working. */
  retires_at?: string | null;
  /** On the old key of a rotation: the id of the key that replaced it. */
  replaced_by?: string | null;
}

/** What rotating a secret key did: the old key with its overlap set, or why nothing changed. */
export type RotateOutcome = { ok: true; old: SecretKeyRecord } | { ok: false; reason: 'not_found' | 'already_rotated' };

export interface AccountKeyRecord {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the whole `ak_` key. */
  hash: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface KeyStore {
  addSecretKey(key: SecretKeyRecord): Promise<SecretKeyRecord>;
  findSecretKeyByHash(hash: string): Promise<SecretKeyRecord | undefined>;
  /** The user's secret keys, oldest first. */
  listSecretKeys(userId: string): Promise<SecretKeyRecord[]>;
  /** Deletes the key when it is the user's; false (and no change) otherwise. */
  revokeSecretKey(id: string, userId: string): Promise<boolean>;
  /** Installs the user's one account key, replacing (and so revoking) the old one in the same write. */
  setAccountKey(key: AccountKeyRecord): Promise<{ rotated: boolean }>;
  findAccountKeyByHash(hash: string): Promise<AccountKeyRecord | undefined>;
  accountKeyOf(userId: string): Promise<AccountKeyRecord | undefined>;
  /**
   * Rotation in one write: when `oldId` is the user's and was never rotated, marks it retiring at
   * `retiresAt` (replaced by `fresh`) and adds `fresh`. Two racing rotations of one key: one wins.
   */
  rotateSecretKey(oldId: string, userId: string, fresh: SecretKeyRecord, retiresAt: string): Promise<RotateOutcome>;
  /** Records a use (and, for a secret key, the caller's address); callers throttle it (at most once a minute per key) so reads do not become writes. */
  touch(kind: 'secret' | 'account', id: string, atIso: string, ip?: string | null): Promise<void>;
}
