/**
 * The authorization server's records (daemon/oauth/): registered clients, grants, authorization
 * codes, access and refresh tokens, and the short-lived interaction state of an authorization
 * request. The protocol library decides what each holds; the store keeps them whole as JSON and
 * knows only what lookups, expiry and revocation need.
 */
export interface OAuthRecord {
  /** The kind of record, as the protocol library names it (`AccessToken`, `Grant`, `Client`, …). */
  kind: string;
  /**
   * SHA-256 (hex) of the record's id: a token's id is the token itself, so a copy of the store
   * (a backup, a leaked database) holds nothing that can be presented as a credential.
   */
  id_hash: string;
  payload: Record<string, unknown>;
  /** The grant a code or token belongs to: revoking the grant ends all of them at once. */
  grant_id: string | null;
  /** An interaction's or a browser session's uid, when it has one. */
  uid: string | null;
  /** When the record stops existing for every reader (ISO); null: never on its own. */
  expires_at: string | null;
  /** When a single-use record (a code, a rotated refresh token) was used. */
  consumed_at: string | null;
}

/**
 * The kind of the record svc files under each grant it makes (daemon/oauth/grant-binding.ts): the
 * grant's Company, with the grant's user as its `uid`, so a user's grants can be listed and ended
 * together (connected apps; a password change or reset).
 */
export const GRANT_BINDING_KIND = 'CompanyBinding';

/**
 * How long an expired grant binding is kept before the stores forget it: reads refuse it from its
 * expiry on, but the audit trail's expiry check (daemon/audit/key-expiry.ts) must still find it to
 * record that the grant ended, also after a daemon was stopped for up to this long.
 */
export const GRANT_BINDING_KEPT_MS = 7 * 86_400_000;

export interface OAuthStore {
  /** Inserts or replaces the record of (kind, id_hash); `nowIso` lets the store forget expired ones. */
  put(record: OAuthRecord, nowIso: string): Promise<void>;
  /** The record, unless it expired by `nowIso`. */
  find(kind: string, idHash: string, nowIso: string): Promise<OAuthRecord | undefined>;
  findByUid(kind: string, uid: string, nowIso: string): Promise<OAuthRecord | undefined>;
  /**
   * Marks a single-use record used, in one check-and-set: true for the one caller that used it,
   * false when it was already used (or is gone). Two daemons redeeming the same code or refresh
   * token at once cannot both succeed.
   */
  consume(kind: string, idHash: string, atIso: string): Promise<boolean>;
  remove(kind: string, idHash: string): Promise<void>;
  /** Removes every record of the grant (its codes and tokens) and the grant itself. */
  removeGrant(grantId: string): Promise<void>;
  /**
   * Sets `payload[field]` to `atIso` on the record if it still exists: an update, never an insert,
   * so a use stamp racing a revocation cannot bring a removed grant's record back.
   */
  stamp(kind: string, idHash: string, field: string, atIso: string): Promise<void>;
  /** Every unexpired record of `kind` filed under `uid`, in no particular order. */
  listByUid(kind: string, uid: string, nowIso: string): Promise<OAuthRecord[]>;
  /**
   * The records of `kind` whose `expires_at` is after `afterIso` and at or before `untilIso`, expired
   * or not (the audit trail's expiry check).
   */
  listExpiring(kind: string, afterIso: string, untilIso: string): Promise<OAuthRecord[]>;
  /** Removes every grant (with all it issued) of a user: those with a grant binding filed under the user's id. */
  removeGrantsOfUser(userId: string): Promise<void>;
}
