import { type DocTable, listDocs, putDoc, type Queryable } from '../runtime/doc-table.js';
import { ACCOUNTS } from './rows.js';
import * as t from './tables.js';

/**
 * Every record of the account tables, out and in, for `svc admin export/import`. Tables are named
 * as on the data folder (daemon/store/accounts/tables.ts) and records have the same shape there and
 * here, so a row read from one goes into the other unchanged. Not included: the data folder's
 * `meta` (sweep cursors) and the throttles' counters (`rate_buckets`, `failures`; on PostgreSQL
 * `svc_rate_hits` and `svc_failures`), which hold no account data. Mail rows are sealed with the
 * mail key of the side that wrote them: move them only where that key goes too.
 */
export const ACCOUNT_TABLES = {
  users: t.users,
  invites: t.invites,
  sessions: t.sessions,
  codes: t.codes,
  mail: t.mail,
  companies: t.companies,
  secret_keys: t.secretKeys,
  account_keys: t.accountKeys,
  challenges: t.challenges,
  passkeys: t.passkeys,
  wallets: t.wallets,
  memberships: t.memberships,
  invitations: t.invitations,
} as const satisfies Record<string, DocTable<never>>;

export type AccountTableName = keyof typeof ACCOUNT_TABLES;
type RecordOf<N extends AccountTableName> = (typeof ACCOUNT_TABLES)[N] extends DocTable<infer T> ? T : never;

/** Every record of one table, oldest first (the order lists show). */
export function dumpAccountTable<N extends AccountTableName>(q: Queryable, name: N): Promise<RecordOf<N>[]> {
  return listDocs(q, ACCOUNT_TABLES[name] as DocTable<RecordOf<N>>, ACCOUNTS);
}

/**
 * Writes records into one table in the order given (which becomes their list order); a record whose
 * key exists replaces it. Pass a client inside your transaction (`withTransaction`) to make a whole
 * import one atomic step. A record breaking a unique rule (an e-mail two users hold, a second account
 * key for one user, a Company name twice for one owner) is refused with the table named.
 */
export async function loadAccountRecords<N extends AccountTableName>(
  q: Queryable,
  name: N,
  records: readonly RecordOf<N>[],
): Promise<number> {
  const table = ACCOUNT_TABLES[name] as DocTable<RecordOf<N>>;
  for (const [i, record] of records.entries()) {
    try {
      await putDoc(q, table, ACCOUNTS, record);
    } catch (err) {
      throw new Error(`${name}: record ${i + 1} could not be loaded: ${(err as Error).message}`);
    }
  }
  return records.length;
}
