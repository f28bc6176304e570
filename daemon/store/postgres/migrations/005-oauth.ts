/**
 * The authorization server's records in team mode (daemon/store/postgres/accounts/oauth.ts), so
 * every daemon on the database shares registered clients, grants, codes and refresh-token
 * families: a code issued through one daemon is redeemed at another behind the same balancer.
 * A row is keyed by its kind and the SHA-256 of its id (a token's id is the token itself).
 */
export const oauthSchema = `
CREATE TABLE svc_oauth_records (
  kind text NOT NULL,
  id_hash text NOT NULL CHECK (id_hash ~ '^[0-9a-f]{64}$'),
  grant_id text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  payload jsonb NOT NULL,
  PRIMARY KEY (kind, id_hash)
);
CREATE INDEX svc_oauth_records_grant ON svc_oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX svc_oauth_records_uid ON svc_oauth_records (kind, uid) WHERE uid IS NOT NULL;
CREATE INDEX svc_oauth_records_expiry ON svc_oauth_records (expires_at) WHERE expires_at IS NOT NULL;
`;
