import type { Space, Table, TableSpec } from '../engine/types.js';
import type { ChallengeRecord, PasskeyRecord, WalletLink } from '../factor-types.js';
import type { FailureRecord, RateBucketRecord } from '../limit-types.js';
import type {
  AccountKeyRecord,
  CompanyRecord,
  InvitationRecord,
  MembershipRecord,
  SecretKeyRecord,
} from '../tenancy-types.js';
import type { CodeRecord, InviteRecord, SessionRecord, UserRecord } from '../types.js';
import { deadKey, metaSpec, msOf, type MetaRecord } from './expiry.js';

/**
 * The tables of the accounts space (`accounts/` in the data folder). Names are stable across
 * releases: they are what the journal holds. Every field a lookup uses has an index, so no read
 * scans a table; `dead` files a row under the minute it may be forgotten (see expiry.ts).
 */

/** A stored message: the bodies are sealed (they hold live codes). */
export interface SealedMail {
  id: string;
  to: string;
  /** Only on rows written before subjects were sealed; new rows keep it inside `sealed`. */
  subject?: string;
  sealed: string;
  created_at: string;
}

const DAY = 24 * 3600_000;
const live = (r: { ended_at: string | null }) => !r.ended_at;

const userSpec: TableSpec<UserRecord> = { name: 'users', id: (u) => u.id, indexes: { email: (u) => u.email } };
export const inviteSpec: TableSpec<InviteRecord> = { name: 'invites', id: (i) => i.hash };

const sessionSpec: TableSpec<SessionRecord> = {
  name: 'sessions',
  id: (s) => s.id,
  indexes: {
    live_user: (s) => (s.revoked_at ? null : s.user_id),
    // Forgotten a day after it ended (revoked or expired), as the lowdb store did.
    dead: (s) => deadKey(msOf(s.revoked_at ?? s.expires_at, DAY)),
  },
};

export const codeSpec: TableSpec<CodeRecord> = {
  name: 'codes',
  id: (c) => c.id,
  indexes: {
    live_email: (c) => (live(c) ? `${c.purpose}|${c.email}` : null),
    live_link: (c) => (live(c) && c.link_hash ? `${c.purpose}|${c.link_hash}` : null),
    live_user: (c) => (live(c) && c.user_id ? `${c.purpose}|${c.user_id}` : null),
    dead: (c) => deadKey(msOf(c.ended_at ?? c.expires_at, DAY)),
  },
};

const mailSpec: TableSpec<SealedMail> = {
  name: 'mail',
  id: (m) => m.id,
  indexes: { to: (m) => m.to.toLowerCase() },
};

export const companySpec: TableSpec<CompanyRecord> = {
  name: 'companies',
  id: (c) => c.id,
  indexes: { owner: (c) => c.owner_id, owner_name: (c) => `${c.owner_id}|${c.name.toLowerCase()}` },
};

export const secretKeySpec: TableSpec<SecretKeyRecord> = {
  name: 'secret_keys',
  id: (k) => k.id,
  indexes: { hash: (k) => k.hash, user: (k) => k.user_id, company: (k) => k.company_id },
};

export const membershipSpec: TableSpec<MembershipRecord> = {
  name: 'memberships',
  id: (m) => m.id,
  indexes: { company: (m) => m.company_id, user: (m) => m.user_id },
};

export const invitationSpec: TableSpec<InvitationRecord> = {
  name: 'invitations',
  id: (i) => i.id,
  // Pending only: an ended invitation is history, found by nothing.
  indexes: {
    live_company: (i) => (i.ended_at ? null : i.company_id),
    live_code: (i) => (i.ended_at ? null : i.code_hash),
    live_email: (i) => (i.ended_at ? null : `${i.company_id}|${i.email}`),
  },
};

export const accountKeySpec: TableSpec<AccountKeyRecord> = {
  name: 'account_keys',
  id: (k) => k.id,
  indexes: { hash: (k) => k.hash, user: (k) => k.user_id },
};

export const challengeSpec: TableSpec<ChallengeRecord> = {
  name: 'challenges',
  id: (c) => c.id,
  indexes: {
    live_secret: (c) => (c.ended_at ? null : `${c.kind}|${c.secret_hash}`),
    // Ended or expired, a challenge can never be used again: it goes at once.
    dead: (c) => deadKey(Math.min(msOf(c.ended_at), msOf(c.expires_at))),
  },
};

const passkeySpec: TableSpec<PasskeyRecord> = {
  name: 'passkeys',
  id: (p) => p.id,
  indexes: { user: (p) => p.user_id },
};
const walletSpec: TableSpec<WalletLink> = { name: 'wallets', id: (w) => w.address };

const rateBucketSpec: TableSpec<RateBucketRecord> = {
  name: 'rate_buckets',
  id: (b) => b.id,
  indexes: { dead: (b) => deadKey(b.exp) },
};
const failureSpec: TableSpec<FailureRecord> = {
  name: 'failures',
  id: (f) => f.id,
  indexes: { dead: (f) => deadKey(f.exp) },
};

/** Every table of the accounts space. The throttles' tables hold counters, not account data. */
export const ACCOUNT_TABLE_SPECS: readonly TableSpec<object>[] = [
  metaSpec,
  userSpec,
  inviteSpec,
  sessionSpec,
  codeSpec,
  mailSpec,
  companySpec,
  secretKeySpec,
  accountKeySpec,
  challengeSpec,
  passkeySpec,
  walletSpec,
  rateBucketSpec,
  failureSpec,
  membershipSpec,
  invitationSpec,
] as unknown as TableSpec<object>[];
export const THROTTLE_TABLES: readonly string[] = [rateBucketSpec.name, failureSpec.name];

export interface AccountTables {
  space: Space;
  meta: Table<MetaRecord>;
  users: Table<UserRecord>;
  invites: Table<InviteRecord>;
  sessions: Table<SessionRecord>;
  codes: Table<CodeRecord>;
  mail: Table<SealedMail>;
  companies: Table<CompanyRecord>;
  secretKeys: Table<SecretKeyRecord>;
  accountKeys: Table<AccountKeyRecord>;
  challenges: Table<ChallengeRecord>;
  passkeys: Table<PasskeyRecord>;
  wallets: Table<WalletLink>;
  rateBuckets: Table<RateBucketRecord>;
  failures: Table<FailureRecord>;
  memberships: Table<MembershipRecord>;
  invitations: Table<InvitationRecord>;
}

export function defineAccountTables(space: Space): AccountTables {
  return {
    space,
    meta: space.define(metaSpec),
    users: space.define(userSpec),
    invites: space.define(inviteSpec),
    sessions: space.define(sessionSpec),
    codes: space.define(codeSpec),
    mail: space.define(mailSpec),
    companies: space.define(companySpec),
    secretKeys: space.define(secretKeySpec),
    accountKeys: space.define(accountKeySpec),
    challenges: space.define(challengeSpec),
    passkeys: space.define(passkeySpec),
    wallets: space.define(walletSpec),
    rateBuckets: space.define(rateBucketSpec),
    failures: space.define(failureSpec),
    memberships: space.define(membershipSpec),
    invitations: space.define(invitationSpec),
  };
}
