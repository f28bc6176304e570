/**
 * Company members and invitations (daemon/store/postgres/accounts/members.ts). The owner has no
 * row: svc_companies.owner_id names them, so a deployment from before members keeps working with
 * nothing rewritten, each Company's one user its owner. A membership's id is `company|user`, so a
 * person is in a Company once. An invitation's `live_code` and `live_email` are set only while it
 * is pending: ending it (accepted, revoked, replaced) frees its address for the next one, and the
 * unique index lets two daemons inviting the same address at once make only one of them.
 * The secret keys get an index on their Company: admins list every key of the Company.
 */
export const membersSchema = `
CREATE TABLE svc_memberships (
  id text PRIMARY KEY, -- company_id|user_id
  pos bigint GENERATED ALWAYS AS IDENTITY,
  company_id text NOT NULL,
  user_id text NOT NULL,
  doc json NOT NULL
);
CREATE INDEX svc_memberships_company ON svc_memberships (company_id, pos);
CREATE INDEX svc_memberships_user ON svc_memberships (user_id, pos);

CREATE TABLE svc_invitations (
  id text PRIMARY KEY,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  live_company text, -- company_id while pending
  live_code text, -- SHA-256 of the code while pending
  live_email text, -- company_id|email while pending
  doc json NOT NULL
);
CREATE INDEX svc_invitations_live_company ON svc_invitations (live_company, pos) WHERE live_company IS NOT NULL;
CREATE UNIQUE INDEX svc_invitations_live_code ON svc_invitations (live_code) WHERE live_code IS NOT NULL;
CREATE UNIQUE INDEX svc_invitations_live_email ON svc_invitations (live_email) WHERE live_email IS NOT NULL;

CREATE INDEX svc_secret_keys_company ON svc_secret_keys (company_id, pos);
`;
