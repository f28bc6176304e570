/**
 * The account stores of team mode (users, invites, sessions, codes, captured mail, Companies, keys,
 * challenges, passkeys, wallets), shared by every daemon of the deployment. As in 100-runtime.ts,
 * each row keeps its whole record in `doc json` (PostgreSQL text cannot hold a NUL, which a user can
 * type into a display name; json keeps `\u0000` escaped and the record exactly as written), and the
 * fields a lookup uses are copied into plain columns by the same statement. `pos` keeps lists in
 * first-insert order, as the record engine's lookups are.
 *
 * Columns named `live_…` hold a lookup key only while the row can still be used (null once it
 * ended): a lock on a row that another daemon ends meanwhile re-checks it and finds it gone, so a
 * code, link or challenge is consumed once across daemons. `forget_at` (ms) is when a row that dies
 * on its own may be deleted (accounts/expiry.ts on the data folder).
 */
export const accountsSchema = `
CREATE TABLE svc_users (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  email text, -- lower-cased; null for a wallet-only account
  doc json NOT NULL
);
-- One account per address, across concurrent sign-ups on any daemon (its name is what the code maps).
CREATE UNIQUE INDEX svc_users_email ON svc_users (email);

CREATE TABLE svc_invites (
  hash text PRIMARY KEY, -- SHA-256 of the invite code
  pos bigint GENERATED ALWAYS AS IDENTITY,
  doc json NOT NULL
);

CREATE TABLE svc_sessions (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  live_user text, -- the user while not revoked
  forget_at bigint NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_sessions_live_user ON svc_sessions (live_user, pos) WHERE live_user IS NOT NULL;
CREATE INDEX svc_sessions_forget ON svc_sessions (forget_at);

CREATE TABLE svc_codes (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  live_email text, -- purpose|email while live
  live_code text, -- purpose|email while live and holding a 6-digit code
  live_link text, -- purpose|link hash while live
  live_user text, -- purpose|user while live
  forget_at bigint NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_codes_live_email ON svc_codes (live_email, pos) WHERE live_email IS NOT NULL;
CREATE INDEX svc_codes_live_code ON svc_codes (live_code, pos) WHERE live_code IS NOT NULL;
CREATE INDEX svc_codes_live_link ON svc_codes (live_link, pos) WHERE live_link IS NOT NULL;
CREATE INDEX svc_codes_live_user ON svc_codes (live_user, pos) WHERE live_user IS NOT NULL;
CREATE INDEX svc_codes_forget ON svc_codes (forget_at);

-- Captured mail; the bodies and subjects are sealed by the daemon (mail_key) before they get here.
CREATE TABLE svc_mail (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  recipient text NOT NULL, -- lower-cased
  doc json NOT NULL
);
CREATE UNIQUE INDEX svc_mail_order ON svc_mail (pos);
CREATE INDEX svc_mail_recipient ON svc_mail (recipient, pos);

CREATE TABLE svc_companies (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  owner_id text NOT NULL,
  owner_name text NOT NULL, -- owner|lower-cased name
  doc json NOT NULL
);
CREATE UNIQUE INDEX svc_companies_owner_name ON svc_companies (owner_name);
CREATE INDEX svc_companies_owner ON svc_companies (owner_id, pos);
CREATE UNIQUE INDEX svc_companies_order ON svc_companies (pos);

-- Keys are stored as the SHA-256 of the whole key only.
CREATE TABLE svc_secret_keys (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  hash text NOT NULL,
  user_id text NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_secret_keys_hash ON svc_secret_keys (hash);
CREATE INDEX svc_secret_keys_user ON svc_secret_keys (user_id, pos);

-- One account key per user: the unique user_id makes a rotation replace, never add.
CREATE TABLE svc_account_keys (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  hash text NOT NULL,
  user_id text NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_account_keys_hash ON svc_account_keys (hash);
CREATE UNIQUE INDEX svc_account_keys_user ON svc_account_keys (user_id);

CREATE TABLE svc_challenges (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  live_secret text, -- kind|secret hash while not ended
  forget_at bigint NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_challenges_live_secret ON svc_challenges (live_secret, pos) WHERE live_secret IS NOT NULL;
CREATE INDEX svc_challenges_forget ON svc_challenges (forget_at);

CREATE TABLE svc_passkeys (
  id text PRIMARY KEY, -- the credential id: it registers once, to anyone
  pos bigint GENERATED ALWAYS AS IDENTITY,
  user_id text NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_passkeys_user ON svc_passkeys (user_id, pos);

CREATE TABLE svc_wallets (
  address text PRIMARY KEY, -- lower-cased: one address, one account
  pos bigint GENERATED ALWAYS AS IDENTITY,
  doc json NOT NULL
);
`;
