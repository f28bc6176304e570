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
 * One per-Company table whose rows are whole records in `doc json` plus copies of the fields its
 * lookups use. Table and column names come from this file's callers (constants), never from input;
 * every value is a `$n` parameter.
 */
export interface DocTable<T> {
  name: string;
  /** The primary key column beside company_id ('id', or 'name' for channels). */
  key: string;
  keyOf(record: T): string;
  /** Lookup columns and their values for a record, written with it in the same statement. */
  columns(record: T): Record<string, string | number | boolean | null>;
  /** Filter fields a caller may pass, and their columns. */
  filters: Record<string, string>;
}

/** Inserts or replaces (a put): a replaced record keeps its `pos`, so lists keep first-put order. */
export async function putDoc<T>(q: Queryable, t: DocTable<T>, company: string, record: T): Promise<void> {
  const cols = t.columns(record);
  const names = Object.keys(cols);
  const values = [company, sqlText(t.keyOf(record)), JSON.stringify(record), ...names.map((n) => column(cols[n]!))];
  const place = names.map((_, i) => `$${i + 4}`).join(', ');
  const set = ['doc = EXCLUDED.doc', ...names.map((n) => `${n} = EXCLUDED.${n}`)].join(', ');
  await q.query(
    `INSERT INTO ${t.name} (company_id, ${t.key}, doc${names.map((n) => `, ${n}`).join('')}) VALUES ($1, $2, $3${place ? `, ${place}` : ''})
     ON CONFLICT (company_id, ${t.key}) DO UPDATE SET ${set}`,
    values,
  );
}

export async function getDoc<T>(
  q: Queryable,
  t: DocTable<T>,
  company: string,
  key: string,
  lock = false,
): Promise<T | undefined> {
  const { rows } = await q.query<{ doc: T }>(
    `SELECT doc FROM ${t.name} WHERE company_id = $1 AND ${t.key} = $2${lock ? ' FOR UPDATE' : ''}`,
    [company, sqlText(key)],
  );
  return rows[0]?.doc;
}

/** The records matching every set field of `filter`, oldest first. Unknown fields are refused. */
export async function listDocs<T>(
  q: Queryable,
  t: DocTable<T>,
  company: string,
  filter: Record<string, string | undefined> = {},
): Promise<T[]> {
  const values: unknown[] = [company];
  const where = ['company_id = $1'];
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const column = t.filters[field];
    if (!column) throw new Error(`${t.name}: no filter on ${field}`);
    values.push(sqlText(value));
    where.push(`${column} = $${values.length}`);
  }
  const { rows } = await q.query<{ doc: T }>(
    `SELECT doc FROM ${t.name} WHERE ${where.join(' AND ')} ORDER BY pos`,
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
  const { rowCount } = await q.query(`DELETE FROM ${t.name} WHERE company_id = $1 AND ${t.key} = $2`, [
    company,
    sqlText(key),
  ]);
  return (rowCount ?? 0) > 0;
}
