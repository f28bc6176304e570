import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { type DocTable, getDoc, listDocs, NO_SCOPE, putDoc, type Queryable, sqlText } from '../runtime/doc-table.js';

/** The account tables are deployment-wide: the doc-table helpers get no Company. */
export const ACCOUNTS = NO_SCOPE;

/** The first record (oldest) whose lookup column `field` holds `value`. */
export async function findFirst<T>(q: Queryable, t: DocTable<T>, field: string, value: string): Promise<T | undefined> {
  return (await listDocs(q, t, ACCOUNTS, { [field]: value }))[0];
}

/** What a check-and-set decided: the record to write (none: no change) and the caller's answer. */
export interface Decision<T, R> {
  write?: T;
  answer: R;
}

/**
 * Check-and-set of one row in one transaction: the row is locked (FOR UPDATE) while `decide` looks
 * at it, so the same call on another connection, on this daemon or another, waits and then decides
 * on this one's result. `decide` throwing rolls back and nothing changes.
 */
export function decideOnRow<T, R>(
  pool: pg.Pool,
  t: DocTable<T>,
  key: string,
  decide: (current: T | undefined) => Decision<T, R>,
): Promise<R> {
  return withTransaction(pool, async (client) => {
    const { write, answer } = decide(await getDoc(client, t, ACCOUNTS, key, true));
    if (write) await putDoc(client, t, ACCOUNTS, write);
    return answer;
  });
}

/**
 * Check-and-set of the rows found by one lookup column, locked in one transaction: a row another
 * daemon changes meanwhile so that it no longer matches (a code it consumed) is not among them.
 */
export function decideOnRows<T, R>(
  pool: pg.Pool,
  t: DocTable<T>,
  field: string,
  value: string,
  decide: (rows: T[]) => Decision<T[], R>,
): Promise<R> {
  return withTransaction(pool, async (client) => {
    const { write, answer } = decide(await listDocs(client, t, ACCOUNTS, { [field]: value }, true));
    for (const record of write ?? []) await putDoc(client, t, ACCOUNTS, record);
    return answer;
  });
}

/**
 * Advisory-lock classes of the account stores (two-key form, so they never meet the migration
 * lock's single key): writes that must take turns per key although no row exists yet to lock.
 */
const TURNS = {
  codeIssue: 7_566_948,
  accountKey: 7_566_949,
  /** Taken inside svc_hold_attempt (migration 104), written there as a literal. */
  failureHold: 7_566_950,
} as const;

/**
 * Makes the caller's transaction wait for any other (on any daemon) holding the same class and key,
 * until it commits or rolls back. Keys are hashed (hashtext): a collision only makes two unrelated
 * keys take turns.
 */
export async function takeTurn(client: Queryable, kind: keyof typeof TURNS, key: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [TURNS[kind], sqlText(key)]);
}

/** Whether `err` is PostgreSQL refusing a duplicate in the unique index `index`. */
export const isDuplicateIn = (err: unknown, index: string): boolean =>
  (err as { code?: string }).code === '23505' && (err as { constraint?: string }).constraint === index;

/** Rows removed by one sweep: more than the writes between two sweeps add, so garbage never piles up. */
const SWEEP_BUDGET = 64;
/** One sweep every this many writes that add a row which dies on its own. */
const SWEEP_EVERY = 16;

/**
 * Bounded expiry of rows that die on their own (sessions, codes, challenges): every SWEEP_EVERY-th
 * add on this daemon deletes at most SWEEP_BUDGET rows whose `forget_at` has passed, found through
 * the `forget_at` index, so no write costs what the table holds. SKIP LOCKED: two daemons sweeping
 * at once take different rows instead of waiting on (or deadlocking over) each other's.
 */
export function createSweeper<T>(pool: pg.Pool, t: DocTable<T>): (nowMs: number) => Promise<void> {
  let adds = 0;
  return async (nowMs) => {
    if (!Number.isFinite(nowMs) || ++adds % SWEEP_EVERY !== 0) return;
    await pool.query(
      `DELETE FROM ${t.name} WHERE ${t.key} IN (
         SELECT ${t.key} FROM ${t.name} WHERE forget_at <= $1 ORDER BY forget_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [nowMs, SWEEP_BUDGET],
    );
  };
}
