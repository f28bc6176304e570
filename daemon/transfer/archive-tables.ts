import type { TableSpec } from '../store/engine/types.js';
import { oauthSpec } from '../store/accounts/oauth.js';
import { ACCOUNT_TABLE_SPECS } from '../store/accounts/tables.js';
import { parseEntry } from '../store/audit/chain.js';

/**
 * The tables an archive may hold. Names are the record engine's (what a data folder's journals
 * call them), so an archive line is the record exactly as the JSON store keeps it; the PostgreSQL
 * side maps each to its rows. Accounts and secrets belong to the deployment (no Company); the
 * runtime tables and the event log belong to one Company each.
 */
export const SECRETS = 'secrets';
export const EVENTS = 'events';
/** The audit trail's entries, as sealed (audit-transfer.ts). */
export const AUDIT = 'audit';

/**
 * The accounts space's tables an archive carries: the account tables and the authorization
 * server's records (clients, grants, tokens, by the hash of their ids), so an MCP client's sign-in
 * survives a move: its tokens are checked against the same records, and the signing keys derive
 * from the JWT secret, which moves too.
 */
export const ARCHIVE_ACCOUNT_SPECS: readonly TableSpec<object>[] = [
  ...ACCOUNT_TABLE_SPECS,
  oauthSpec as unknown as TableSpec<object>,
];
export const OAUTH_RECORDS = `accounts.${oauthSpec.name}`;

export const ACCOUNT_TABLES: readonly string[] = ARCHIVE_ACCOUNT_SPECS.map((s) => `accounts.${s.name}`);

/** One Company's runtime tables, in the order an export writes them. */
export const RUNTIME_TABLE_NAMES = [
  'agents',
  'sessions',
  'messages',
  'quests',
  'configured_events',
  'firings',
  'retries',
  'schedule_ticks',
  'channels',
  'questions',
  'webhook_deliveries',
  'idempotency_keys',
  // Added after the first archives: an archive without them imports as a Company with no budget and no failures.
  'settings',
  'failures',
] as const;
export type RuntimeTableName = (typeof RUNTIME_TABLE_NAMES)[number];
const RUNTIME_TABLES: readonly string[] = RUNTIME_TABLE_NAMES.map((n) => `runtime.${n}`);

/** The deployment's secrets: names as in PostgreSQL's svc_secrets, files as in the data folder. */
export const SECRET_FILES: Readonly<Record<string, string>> = {
  jwt_secret: 'jwt-secret',
  operator_token: 'operator-token',
  mail_key: 'mail-key',
  code_key: 'code-key',
};

/** One record of an archive: `company` is null for the deployment's tables. */
export interface ArchiveRecord {
  table: string;
  company: string | null;
  record: Record<string, unknown>;
}

export interface SecretRecord {
  name: string;
  value: string;
}

/** A Company id names a folder of the data folder: nothing that could step outside it. */
const isCompanyId = (id: unknown): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(id);

/** Why a record cannot be in an archive, or null when it can (shape only; the loaders check the rest). */
export function problemOf(r: ArchiveRecord): string | null {
  const perCompany = r.table === EVENTS || RUNTIME_TABLES.includes(r.table);
  if (!perCompany && r.table !== SECRETS && r.table !== AUDIT && !ACCOUNT_TABLES.includes(r.table))
    return `unknown table '${r.table}'`;
  if (perCompany && !isCompanyId(r.company)) return `a ${r.table} record needs a Company id (letters, digits, _ and -)`;
  if (!perCompany && r.company !== null) return `a ${r.table} record belongs to no Company`;
  if (typeof r.record !== 'object' || r.record === null || Array.isArray(r.record))
    return 'the record is not an object';
  if (r.table === 'accounts.companies' && !isCompanyId(r.record.id))
    return 'a Company record needs an id of letters, digits, _ and -';
  if (r.table === AUDIT && parseEntry(JSON.stringify(r.record)) === null) return 'the record is not an audit entry';
  if (r.table === SECRETS) {
    const { name, value } = r.record;
    if (typeof name !== 'string' || !(name in SECRET_FILES)) return `unknown secret '${String(name)}'`;
    if (typeof value !== 'string' || value.length === 0 || /[\r\n]/.test(value))
      return `secret ${name} is not a one-line value`;
  }
  return null;
}
