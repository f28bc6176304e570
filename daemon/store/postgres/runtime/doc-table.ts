import type pg from 'pg';
import { withTransaction } from '../connect.js';
import type { RecordChange } from '../../runtime-types.js';

/**
 * A text value as a key or lookup column holds it: PostgreSQL text cannot contain NUL, and a user
 * can send one (an id in a URL, a role), so NUL becomes `\0` and a backslash `\\` (one-to-one, so
 * no two values meet). Every key and filter value passes through here, on the way in and in queries.
 */
export const sqlText = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\0/g, '\\0');

/** The value `sqlText` stored, back (for keys read from a table rather than from a doc). */
export const fromSqlText = (stored: string): string =>
  stored.replace(/\\(\\|0)/g, (_, c: string) => (c === '0' ? '\0' : '\\'));

const column = (value: string | number | boolean | null): string | number | boolean | null =>
  typeof value === 'string' ? sqlText(value) : value;

/** A pool or one connection inside a transaction: the helpers below run on either. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * One table whose rows are whole records in `doc json` plus copies of the fields its lookups use.
 * Table and column names come from this file's callers (constants), never from input; every value
 * is a `$n` parameter.
 */
export interface DocTable<T> {
  name: string;
  /**
   * The column every query is kept inside: `company_id` (the default) on the per-Company tables;
   * null on the deployment-wide account tables, whose callers pass `NO_SCOPE` as the company.
   */
  scope?: string | null;
  /** The primary key column beside the scope ('id', or 'name' for channels). */
  key: string;
  keyOf(record: T): string;
  /** Lookup columns and their values for a record, written with it in the same statement. */
  columns(record: T): Record<string, string | number | boolean | null>;
  /** Filter fields a caller may pass, and their columns. */
  filters: Record<string, string>;
}

/** The company argument of the helpers below for a table without a scope (the account tables). */
export const NO_SCOPE = '';

/** The scope's column and value, or none: the start of every row's key and every WHERE. */
function scopeOf<T>(t: DocTable<T>, company: string): { cols: string[]; values: unknown[] } {
  const col = t.scope === undefined ? 'company_id' : t.scope;
  return col === null ? { cols: [], values: [] } : { cols: [col], values: [company] };
}

/** `scope = $1 AND key = $2` (or `key = $1`) and its values. */
function whereKey<T>(t: DocTable<T>, company: string, key: string): { where: string; values: unknown[] } {
  const s = scopeOf(t, company);
  const cols = [...s.cols, t.key];
  return { where: cols.map((c, i) => `${c} = $${i + 1}`).join(' AND '), values: [...s.values, sqlText(key)] };
}

/** Inserts or replaces (a put): a replaced record keeps its `pos`, so lists keep first-put order. */
export async function putDoc<T>(q: Queryable, t: DocTable<T>, company: string, record: T): Promise<void> {
  await writeDoc(q, t, company, record, false);
}

/** Inserts unless the key (or any other unique column) exists already; whether it was added. */
export function insertDoc<T>(q: Queryable, t: DocTable<T>, company: string, record: T): Promise<boolean> {
  return writeDoc(q, t, company, record, true);
}

async function writeDoc<T>(
  q: Queryable,
  t: DocTable<T>,
  company: string,
  record: T,
  insertOnly: boolean,
): Promise<boolean> {
  const s = scopeOf(t, company);
  const cols = t.columns(record);
  const names = [...s.cols, t.key, 'doc', ...Object.keys(cols)];
  const values = [
    ...s.values,
    sqlText(t.keyOf(record)),
    JSON.stringify(record),
    ...Object.values(cols).map((v) => column(v)),
  ];
  const set = names.slice(s.cols.length + 1).map((n) => `${n} = EXCLUDED.${n}`);
  const { rowCount } = await q.query(
    `INSERT INTO ${t.name} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT ${insertOnly ? 'DO NOTHING' : `(${[...s.cols, t.key].join(', ')}) DO UPDATE SET ${set.join(', ')}`}`,
    values,
  );
  return (rowCount ?? 0) > 0;
}

export async function getDoc<T>(
  q: Queryable,
  t: DocTable<T>,
  company: string,
  key: string,
  lock = false,
): Promise<T | undefined> {
  const { where, values } = whereKey(t, company, key);
  const { rows } = await q.query<{ doc: T }>(
    `SELECT doc FROM ${t.name} WHERE ${where}${lock ? ' FOR UPDATE' : ''}`,
    values,
  );
  return rows[0]?.doc;
}

/**
 * The records matching every set field of `filter`, oldest first. Unknown fields are refused.
 * With `lock` the rows are locked (FOR UPDATE) for the caller's transaction: a row another
 * transaction changed meanwhile is checked against the filter again once it commits.
 */
export async function listDocs<T>(
  q: Queryable,
  t: DocTable<T>,
  company: string,
  filter: Record<string, string | undefined> = {},
  lock = false,
): Promise<T[]> {
  const s = scopeOf(t, company);
  const values: unknown[] = [...s.values];
  const where = s.cols.map((c, i) => `${c} = $${i + 1}`);
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const column = t.filters[field];
    if (!column) throw new Error(`${t.name}: no filter on ${field}`);
    values.push(sqlText(value));
    where.push(`${column} = $${values.length}`);
  }
  const { rows } = await q.query<{ doc: T }>(
    `SELECT doc FROM ${t.name}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY pos${lock ? ' FOR UPDATE' : ''}`,
    values,
  );
  return rows.map((r) => r.doc);
}

/**
 * Check-and-set in one transaction: the row is locked (FOR UPDATE) while `change` decides, so a
 * change on another connection, on this daemon or another, waits and then sees this one's result.
 * `change` throwing rolls back and nothing changes; `also` writes more in the same transaction.
 */
export function updateDoc<T>(
  pool: pg.Pool,
  t: DocTable<T>,
  company: string,
  key: string,
  change: RecordChange<T>,
  also?: (client: pg.PoolClient, before: T, next: T) => Promise<void>,
): Promise<T | undefined> {
  return withTransaction(pool, async (client) => {
    const current = await getDoc(client, t, company, key, true);
    if (current === undefined) return undefined;
    const next = change(current);
    await putDoc(client, t, company, next);
    await also?.(client, current, next);
    return next;
  });
}

/** Deletes one record; false when there was none. */
export async function deleteDoc<T>(q: Queryable, t: DocTable<T>, company: string, key: string): Promise<boolean> {
  const { where, values } = whereKey(t, company, key);
  const { rowCount } = await q.query(`DELETE FROM ${t.name} WHERE ${where}`, values);
  return (rowCount ?? 0) > 0;
}
