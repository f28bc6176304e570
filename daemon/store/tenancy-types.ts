/**
 * Storage interfaces for Companies and access keys, beside the others in types.ts.
 * Keys are stored only as the SHA-256 of the whole key (SECURITY.md): a leaked data folder
 * yields no usable key.
 */
import type { AssignableRole, Role } from '../../shared/roles.js';

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
  /**
   * Deletes the Company when `ownerId` owns it, in one write with what only it gave access to: its
   * memberships, its pending invitations and its secret keys. Undefined (and no change) when there
   * is no such Company or someone else owns it. The runtime's records are the runtime host's.
   */
  remove(companyId: string, ownerId: string): Promise<CompanyRemoval | undefined>;
}

/** What deleting a Company took with it. */
export interface CompanyRemoval {
  company: CompanyRecord;
  members: string[];
  invitations: number;
  keys: string[];
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
  /** Every secret key of the Company, whoever made it, oldest first. */
  listCompanyKeys(companyId: string): Promise<SecretKeyRecord[]>;
  findSecretKeyById(id: string): Promise<SecretKeyRecord | undefined>;
  /** The keys whose `expires_at` is after `afterIso` and at or before `untilIso` (the audit trail's expiry check). */
  listKeysExpiring(afterIso: string, untilIso: string): Promise<SecretKeyRecord[]>;
  /** Deletes the key when it belongs to the Company; false (and no change) otherwise. */
  deleteCompanyKey(id: string, companyId: string): Promise<boolean>;
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

/**
 * A person's membership of a Company other than its owner. The owner has no row: the Company's
 * `owner_id` names them, so a data folder from before members opens as it is, its one user the owner.
 */
export interface MembershipRecord {
  /** `company_id|user_id`: one row per person and Company. */
  id: string;
  company_id: string;
  user_id: string;
  role: AssignableRole;
  created_at: string;
  /** Who invited them (the inviter's user id), when they joined through an invitation. */
  invited_by: string | null;
}

/** An invitation to join a Company. Only the code's hash is stored: the code is a bearer secret. */
export interface InvitationRecord {
  id: string;
  company_id: string;
  /** Lower-cased: only an account with this address may accept. */
  email: string;
  role: AssignableRole;
  code_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  /** When it ended (accepted, revoked, or replaced by a newer invitation to the same address); null while pending. */
  ended_at: string | null;
  ended_as: 'accepted' | 'revoked' | 'replaced' | null;
  accepted_by: string | null;
}

/** A Company and the caller's role in it (null: not a member), read in one lookup. */
export interface CompanyAccess {
  company: CompanyRecord;
  role: Role | null;
}

export type AcceptOutcome =
  | { ok: true; company: CompanyRecord; membership: MembershipRecord }
  | { ok: false; reason: 'not_found' | 'expired' | 'wrong_email' | 'already_member' };

export type TransferOutcome =
  | { ok: true; company: CompanyRecord }
  | { ok: false; reason: 'not_owner' | 'not_member' | 'name_taken' };

/** Memberships and invitations; each change is one atomic write (one transaction on a database). */
export interface MemberStore {
  /** The Company and the user's role in it, in one read: every Company request asks this, never cached. */
  accessOf(companyId: string, userId: string): Promise<CompanyAccess | undefined>;
  /** The Companies the user owns or belongs to, oldest first, with their role. */
  companiesOf(userId: string): Promise<Array<{ company: CompanyRecord; role: Role }>>;
  /** The members other than the owner, oldest first. */
  listMembers(companyId: string): Promise<MembershipRecord[]>;
  /** Undefined when the user holds no membership row (not a member, or the owner). */
  setRole(companyId: string, userId: string, role: AssignableRole): Promise<MembershipRecord | undefined>;
  /** False when the user holds no membership row. */
  remove(companyId: string, userId: string): Promise<boolean>;
  /**
   * Ownership moves from `fromId` (who must be the owner) to `toId` (who must be a member) in one
   * write: the new owner's row goes, the old owner becomes an admin. Always exactly one owner.
   */
  transfer(companyId: string, fromId: string, toId: string, atIso: string): Promise<TransferOutcome>;
  /** Adds a pending invitation, ending (as replaced) a pending one to the same address of the same Company. */
  invite(invitation: InvitationRecord): Promise<{ replaced: string | null }>;
  /** The Company's pending invitations (expired ones included until they are replaced or revoked), oldest first. */
  listInvitations(companyId: string): Promise<InvitationRecord[]>;
  /** The pending invitation with this code hash. */
  findInvitation(codeHash: string): Promise<InvitationRecord | undefined>;
  /** Ends a pending invitation of the Company as revoked; false when there is none with this id. */
  revokeInvitation(companyId: string, id: string, atIso: string): Promise<boolean>;
  /**
   * Accepts in one write: the pending invitation with this code hash, unexpired, for this address,
   * to someone not yet in the Company, ends as accepted and its membership is added.
   */
  acceptInvitation(codeHash: string, userId: string, email: string, atIso: string): Promise<AcceptOutcome>;
}

export const membershipId = (companyId: string, userId: string) => `${companyId}|${userId}`;
