/**
 * Team mode's operator tokens, stored only as SHA-256 hashes (daemon/store/postgres/operator-tokens.ts).
 * The plaintext token that svc_secrets held before is moved here by the first daemon that starts,
 * not by this migration: that daemon writes it into its data folder, so nothing is lost.
 */
export const operatorTokensSchema = `
CREATE TABLE svc_operator_tokens (
  hash text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
  -- Where the token was written (host and data folder), so an operator can tell rows apart and revoke one.
  label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;
