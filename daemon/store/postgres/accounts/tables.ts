import { msOf } from '../../accounts/expiry.js';
import type { SealedMail } from '../../accounts/tables.js';
import type { ChallengeRecord, PasskeyRecord, WalletLink } from '../../factor-types.js';
import type {
  AccountKeyRecord,
  CompanyRecord,
  InvitationRecord,
  MembershipRecord,
  SecretKeyRecord,
} from '../../tenancy-types.js';
import type { CodeRecord, InviteRecord, SessionRecord, UserRecord } from '../../types.js';
import type { DocTable } from '../runtime/doc-table.js';

/**
 * The doc tables of migration 2 (see 002-accounts.ts). The lookup columns mirror the indexes of the
 * data folder's tables (daemon/store/accounts/tables.ts), so both answer every lookup the same way;
 * the account tables are deployment-wide, so they have no scope column.
 */
const DAY = 24 * 3600_000;

const table = <T>(
  name: string,
  key: string,
  keyOf: (r: T) => string,
  columns: DocTable<T>['columns'] = () => ({}),
  filters: Record<string, string> = {},
): DocTable<T> => ({ name, scope: null, key, keyOf, columns, filters });

/** Every lookup column is also a filter of the same name. */
const same = (...names: string[]) => Object.fromEntries(names.map((n) => [n, n]));

export const users = table<UserRecord>(
  'svc_users',
  'id',
  (u) => u.id,
  (u) => ({ email: u.email ?? null }),
  same('email'),
);

export const invites = table<InviteRecord>('svc_invites', 'hash', (i) => i.hash);

export const sessions = table<SessionRecord>(
  'svc_sessions',
  'id',
  (s) => s.id,
  (s) => ({
    live_user: s.revoked_at ? null : s.user_id,
    // Forgotten a day after it ended (revoked or expired), as on the data folder.
    forget_at: msOf(s.revoked_at ?? s.expires_at, DAY),
  }),
  same('live_user'),
);

export const codes = table<CodeRecord>(
  'svc_codes',
  'id',
  (c) => c.id,
  (c) => {
    const live = !c.ended_at;
    return {
      live_email: live ? `${c.purpose}|${c.email}` : null,
      live_code: live && c.code_hash ? `${c.purpose}|${c.email}` : null,
      live_link: live && c.link_hash ? `${c.purpose}|${c.link_hash}` : null,
      live_user: live && c.user_id ? `${c.purpose}|${c.user_id}` : null,
      forget_at: msOf(c.ended_at ?? c.expires_at, DAY),
    };
  },
  same('live_email', 'live_code', 'live_link', 'live_user'),
);

export const mail = table<SealedMail>(
  'svc_mail',
  'id',
  (m) => m.id,
  (m) => ({ recipient: m.to.toLowerCase() }),
  same('recipient'),
);

export const companies = table<CompanyRecord>(
  'svc_companies',
  'id',
  (c) => c.id,
  (c) => ({ owner_id: c.owner_id, owner_name: `${c.owner_id}|${c.name.toLowerCase()}` }),
  same('owner_id'),
);

export const secretKeys = table<SecretKeyRecord>(
  'svc_secret_keys',
  'id',
  (k) => k.id,
  (k) => ({ hash: k.hash, user_id: k.user_id, company_id: k.company_id }),
  same('hash', 'user_id', 'company_id'),
);

export const memberships = table<MembershipRecord>(
  'svc_memberships',
  'id',
  (m) => m.id,
  (m) => ({ company_id: m.company_id, user_id: m.user_id }),
  same('company_id', 'user_id'),
);

export const invitations = table<InvitationRecord>(
  'svc_invitations',
  'id',
  (i) => i.id,
  (i) => ({
    live_company: i.ended_at ? null : i.company_id,
    live_code: i.ended_at ? null : i.code_hash,
    live_email: i.ended_at ? null : `${i.company_id}|${i.email}`,
  }),
  same('live_company', 'live_code', 'live_email'),
);

export const accountKeys = table<AccountKeyRecord>(
  'svc_account_keys',
  'id',
  (k) => k.id,
  (k) => ({ hash: k.hash, user_id: k.user_id }),
  same('hash', 'user_id'),
);

export const challenges = table<ChallengeRecord>(
  'svc_challenges',
  'id',
  (c) => c.id,
  (c) => ({
    live_secret: c.ended_at ? null : `${c.kind}|${c.secret_hash}`,
    // Ended or expired, a challenge can never be used again: it may go at once.
    forget_at: Math.min(msOf(c.ended_at), msOf(c.expires_at)),
  }),
  same('live_secret'),
);

export const passkeys = table<PasskeyRecord>(
  'svc_passkeys',
  'id',
  (p) => p.id,
  (p) => ({ user_id: p.user_id }),
  same('user_id'),
);

export const wallets = table<WalletLink>('svc_wallets', 'address', (w) => w.address);
