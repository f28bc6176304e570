import type { Role } from '../../shared/roles.js';
import type { MailMessage, Tier } from '../../shared/wire.js';
import type { CompanyRecord, CompanyStore, KeyStore, MemberStore, SecretKeyRecord } from './tenancy-types.js';

export type * from './tenancy-types.js';
export type * from './runtime-types.js';
import type { ChallengeStore, PasskeyStore, WalletStore } from './factor-types.js';
import type { LimitStore } from './limit-types.js';
import type { OAuthStore } from './oauth-types.js';
import type { AuditStore } from './audit-types.js';
export type * from './audit-types.js';
export type * from './oauth-types.js';
export type * from './factor-types.js';
export type * from './limit-types.js';

/**
 * The storage seam: small domain interfaces, async for reads as well as writes, so that a store can
 * be backed by a database. `index.ts` builds them once over the record engine (`engine/`): in memory,
 * or over the JSON Lines journal of the data folder (`accounts/`); `tests/daemon/store/` runs one
 * conformance suite against every implementation. Every write method resolves only after the change
 * is durable. Stores return values or throw domain errors (StoreConflict), never HTTP statuses.
 */

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  code?: string | null;
  link?: string | null;
}

/** Every message the daemon "sends" (CONTRACT §3). Bodies are sealed at rest: they hold live codes. */
export interface MailOutbox {
  record(mail: NewMail): Promise<MailMessage>;
  /** Oldest first; `to` matches case-insensitively; `sinceId` returns only later messages. */
  list(filter?: { to?: string; sinceId?: string }): Promise<MailMessage[]>;
}

export interface InviteRecord {
  /** SHA-256 of the code: invite codes are bearer secrets and never stored in plaintext. */
  hash: string;
  created_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface InviteStore {
  add(hash: string, at: string): Promise<void>;
  /** Marks the invite used; false when it does not exist or was used already (single use, atomic). */
  consume(hash: string, at: string, userId: string): Promise<boolean>;
  find(hash: string): Promise<InviteRecord | undefined>;
}

export interface UserRecord {
  id: string;
  /** Lower-cased, NFKC-normalised; null for a wallet-only account. */
  email: string | null;
  tier: Tier;
  created_at: string;
  /** Set once the e-mailed signup code was entered. */
  email_verified_at?: string | null;
  /** `scrypt$N$r$p$salt$hash` (auth/passwords.ts); null for accounts without a password. */
  password_hash?: string | null;
  // accounts: profile, avatar, recovery and e-mail change
  password_changed_at?: string | null;
  display_name?: string | null;
  timezone?: string | null;
  locale?: string | null;
  /** Set once the first-run welcome flow named the user (POST /api/auth/welcome/profile-name). */
  welcome_completed_at?: string | null;
  /** The image itself, checked by magic bytes and capped at 48 KiB (daemon/auth/avatar.ts). */
  avatar?: { type: string; data_base64: string; updated_at: string } | null;
  /** The address an e-mail change waits to confirm (the code went there). */
  pending_email?: string | null;
  [field: string]: unknown;
}

/** What creating an account against an invite came to; expected "no" answers are values. */
export type SignupResult = 'created' | 'invite_invalid' | 'email_taken';

export interface UserStore {
  findById(id: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** Fails with `email_taken` when another user has the e-mail. */
  create(user: UserRecord): Promise<UserRecord>;
  setTier(id: string, tier: Tier): Promise<UserRecord | undefined>;
  /**
   * Changes one user atomically: `change` edits a copy of the record (and may throw to change
   * nothing); the copy replaces the record when `change` returns. Fails with `email_taken` if the change gives it another user's e-mail. Undefined when no such user.
   */
  update(id: string, change: (user: UserRecord) => void): Promise<UserRecord | undefined>;
  /**
   * Consumes the invite and creates the user in one atomic step: the invite is spent only when
   * the account is made, and a used or unknown invite creates nothing.
   */
  createWithInvite(user: UserRecord, inviteHash: string, atIso: string): Promise<SignupResult>;
  /**
   * Sets the password hash and revokes the user's live sessions but `keepSessionId`, atomically
   * (a reset keeps none, a change keeps the caller's). Undefined when no such user, else how many were revoked.
   */
  setPassword(
    id: string,
    passwordHash: string,
    atIso: string,
    keepSessionId: string | null,
    change?: (user: UserRecord) => void,
  ): Promise<number | undefined>;
}

/** What an e-mailed code is for; a code for one purpose never works for another. */
export type CodePurpose = 'verify' | 'login' | 'email_change' | 'password_reset';

/**
 * One e-mailed secret: a 6-digit code, a link token, or both in the same row (login code + magic
 * link, spec §2.6) so consuming either consumes both. Only HMACs/hashes are stored.
 */
export interface CodeRecord {
  id: string;
  purpose: CodePurpose;
  /** The address the code was sent to, normalised: a code sent to A never works for B. */
  email: string;
  user_id: string | null;
  code_hash: string | null;
  link_hash: string | null;
  /** Wrong tries so far; at the limit the row is burned. */
  tries: number;
  created_at: string;
  expires_at: string;
  /** Consumed, burned or superseded: the row is dead either way. */
  ended_at: string | null;
  /** Purpose-specific context (e.g. the new address of an e-mail change). */
  data?: Record<string, unknown>;
}

export type CodeAttempt =
  | { ok: true; record: CodeRecord }
  | { ok: false; reason: 'no_code' | 'wrong' | 'expired' | 'burned' };

export interface CodeStore {
  /** Stores a new code and ends every live code of the same purpose and e-mail (a new code invalidates the old). */
  issue(record: CodeRecord): Promise<void>;
  /**
   * One atomic check-and-set on the live row of (purpose, email): the right code ends it and returns it;
   * a wrong one counts a try, and the `maxTries`-th wrong try burns the row (the right code then fails too).
   */
  consumeCode(
    purpose: CodePurpose,
    email: string,
    codeHash: string,
    nowIso: string,
    maxTries: number,
  ): Promise<CodeAttempt>;
  /** The live, unexpired row whose link hash matches, ended atomically; null otherwise. */
  consumeLink(purpose: CodePurpose, linkHash: string, nowIso: string): Promise<CodeRecord | null>;
  /** Ends every live code of the user for this purpose (e.g. reset links after a password change). */
  endAll(purpose: CodePurpose, userId: string, nowIso: string): Promise<void>;
}

/** A login session: the row named by a JWT's `sid`, checked on every authenticated request. */
export interface SessionRecord {
  id: string;
  user_id: string;
  /** `unverified` sessions come from signup and reach only verify, resend-code and GET /api/me. */
  kind: 'full' | 'unverified';
  /** How the user logged in: pwd, otp, email, wallet, passkey… (the JWT's amr). */
  method: string[];
  created_at: string;
  /**
   * When the login this session descends from happened: its own creation for a login, the
   * approver's login for a session made by a pairing, so a session copied from another never
   * passes for a fresh login. Rows from before the field fall back to `created_at` (recent-login.ts).
   */
  auth_at?: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

export interface SessionStore {
  find(id: string): Promise<SessionRecord | undefined>;
  /**
   * The session and the user it names (`user_id`), read together: every authenticated request's
   * lookup, one query on a database. No cache: what another daemon revoked is seen.
   */
  findWithUser(id: string): Promise<{ session: SessionRecord; user: UserRecord | undefined } | undefined>;
  listActive(userId: string, nowIso: string): Promise<SessionRecord[]>;
  create(session: SessionRecord): Promise<SessionRecord>;
  /** False when the session is not the user's, does not exist or is already revoked. */
  revoke(id: string, userId: string, atIso: string): Promise<boolean>;
  /** Revokes every live session of the user but `exceptId`; returns how many. */
  revokeAll(userId: string, atIso: string, exceptId?: string): Promise<number>;
  touch(id: string, atIso: string): Promise<void>;
}

/** A secret key with the user and the Company it names (either may be gone). */
export interface SecretKeyWithOwner {
  key: SecretKeyRecord;
  user: UserRecord | undefined;
  company: CompanyRecord | undefined;
  /** The Company's owner, whose tier decides whether the Company's keys work (whoever made them). */
  owner: UserRecord | undefined;
  /** The role the key's maker holds in the Company now; null once they left (the key works on). */
  makerRole?: Role | null;
}

/** The key store with the lookup every MCP call makes (here, beside UserRecord: tenancy-types cannot import it). */
export interface CallerKeyStore extends KeyStore {
  /** The key found by hash with its user and Company, read together (one query on a database), never cached. */
  findSecretKeyWithOwner(hash: string): Promise<SecretKeyWithOwner | undefined>;
}

export interface Stores {
  outbox: MailOutbox;
  invites: InviteStore;
  users: UserStore;
  sessions: SessionStore;
  codes: CodeStore;
  /** Companies and access keys. */
  companies: CompanyStore;
  /** Who belongs to which Company, in which role, and the invitations to join. */
  members: MemberStore;
  keys: CallerKeyStore;
  /** One-time challenges of the second factors and passwordless logins. */
  challenges: ChallengeStore;
  passkeys: PasskeyStore;
  wallets: WalletStore;
  /** Rate-limit buckets and failure ceilings, kept across restarts. */
  limits: LimitStore;
  /** The authorization server's clients, grants, codes and tokens (daemon/oauth/). */
  oauth: OAuthStore;
  /** The audit trail: every stream's hash chain (daemon/store/audit/, docs/audit.md). */
  audit: AuditStore;
  /** Resolves once every pending write is on disk. */
  flush(): Promise<void>;
  /** Flushes and releases the files; the stores must not be used afterwards. */
  close(): Promise<void>;
}

export class StoreConflict extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreConflict';
  }
}
