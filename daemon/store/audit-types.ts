/**
 * The audit trail's records (docs/audit.md): who did what, with which credential, and what came of
 * it. Entries are append-only and kept in streams — one per Company, one for the account side —
 * each entry carrying the hash of the one before it in its stream, so an edit, a removal or a
 * reordering in storage shows when the chain is walked again (`verify`).
 */

/** Who acted. Every field but `type` may be null: a failed login has no user, an operator no key. */
export interface AuditActor {
  type: 'user' | 'key' | 'oauth' | 'operator' | 'anonymous';
  user_id: string | null;
  key_id: string | null;
  client_id: string | null;
  grant_id: string | null;
}

export type AuditOutcome = 'succeeded' | 'refused';

/** What a caller hands to the recorder; the store adds id, stream, seq and the chain. */
export interface NewAuditEntry {
  at: string;
  actor: AuditActor;
  /** The account the entry concerns (the actor's, or the target of a login attempt): whose list shows it. */
  user_id: string | null;
  company_id: string | null;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  reason: string | null;
  request_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  /** Small, secret-free facts: a tool's argument digest, a route, a status, a duration, a factor. */
  details: Record<string, unknown>;
}

export interface AuditEntry extends NewAuditEntry {
  /** `aud_` + a 16-digit position, in the order entries were committed across every stream. */
  id: string;
  /** `account`, or the Company's id. */
  stream: string;
  /** 1, 2, 3… within the stream. */
  seq: number;
  /** The hash of the stream's entry before this one; 64 zeros for the first. */
  prev: string;
  /** SHA-256 (hex) of the entry's canonical JSON without `hash` (chain.ts). */
  hash: string;
}

export interface AuditQuery {
  /** Whose entries: every one (the operator), or a user's own plus those of the Companies listed. */
  viewer: 'all' | { user_id: string | null; company_ids: readonly string[] };
  /** Only this Company's entries (already checked to be the viewer's). */
  company_id?: string;
  action?: string;
  /** An actor's user id, key id or OAuth client id. */
  actor?: string;
  key_id?: string;
  outcome?: AuditOutcome;
  since?: string;
  until?: string;
  /** Newest first, strictly older than this id (the previous page's `next_cursor`). */
  before?: string;
  /** Oldest first, strictly newer than this id: what `tail` follows. Excludes `before`. */
  after?: string;
  limit: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** `before` for the next page (newest-first paging), or, with `after`, the last id returned; null when nothing more is there now. */
  next_cursor: string | null;
}

/** The first place a stream's chain does not hold. */
export interface AuditBreak {
  stream: string;
  /** The entry that does not match (its stored id), or the position where one is missing. */
  entry_id: string | null;
  seq: number | null;
  problem: string;
}

export interface AuditVerification {
  ok: boolean;
  streams: number;
  entries: number;
  /** The newest hash of each stream: keep it elsewhere to notice a cut tail later. */
  heads: Record<string, { seq: number; hash: string }>;
  broken: AuditBreak | null;
}

export interface AuditStore {
  /**
   * Appends one entry to its stream's chain. Resolves once it is durable (group-committed with the
   * entries around it); callers on the request path may leave it unawaited (docs/audit.md).
   */
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  query(q: AuditQuery): Promise<AuditPage>;
  /** Re-walks every stream's chain from what is stored. */
  verify(): Promise<AuditVerification>;
  /**
   * Removes the entries older than `beforeIso` that can go (whole segments on disk), after
   * appending to each stream a checkpoint entry naming the last removed seq and hash, so the chain
   * still verifies. Returns how many entries were removed.
   */
  sweep(beforeIso: string, at: string): Promise<number>;
  /** Resolves once every append made so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
