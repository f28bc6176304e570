/**
 * The audit trail (daemon/store/postgres/audit.ts): one row per entry, `body` the entry exactly as
 * sealed (its hash covers it; the other columns are copies for filtering), `pos` the order entries
 * were committed in across every stream (appends take one advisory lock, so pos order is commit
 * order and a follower's cursor never skips a row). `svc_audit_heads` holds each stream's newest
 * seq and hash, read and moved in the appending transaction.
 */
export const auditSchema = `
CREATE TABLE svc_audit_entries (
  pos bigint PRIMARY KEY,
  stream text NOT NULL,
  seq bigint NOT NULL,
  at text NOT NULL,
  user_id text,
  company_id text,
  action text NOT NULL,
  outcome text NOT NULL,
  actor_user text,
  actor_key text,
  actor_client text,
  body text NOT NULL,
  UNIQUE (stream, seq)
);
CREATE INDEX svc_audit_entries_user ON svc_audit_entries (user_id, pos);
CREATE INDEX svc_audit_entries_company ON svc_audit_entries (company_id, pos);
CREATE TABLE svc_audit_heads (
  stream text PRIMARY KEY,
  seq bigint NOT NULL,
  hash text NOT NULL
);
`;
