import type pg from 'pg';

/**
 * Keeps a per-Company table (webhook delivery ids, idempotent answers) at about `max` rows, the
 * oldest (lowest `pos`) forgotten first, as the record engine does. Counting a Company's rows takes
 * time in proportion to them (about 20 ms at 100,000), so a store does not count on every write, as
 * it once did: it trims on its first write and then after every `trimEvery(max)` of its own writes.
 * Between two trims each daemon may add that many rows beyond `max` (at most 1% of it).
 */
export interface CappedRows {
  /**
   * Called after each committed write; trims when this store's turn has come. Never throws: the
   * write it follows has committed (a webhook delivery refused now would be a duplicate when
   * resent), so a failed trim is left to the next write.
   */
  wrote(): Promise<void>;
}

/** Writes between two trims: exact below 100 rows, at most 1% of `max` (and 256) above. */
export const trimEvery = (max: number) => Math.max(1, Math.min(256, Math.floor(max / 100)));

export function createCappedRows(
  pool: pg.Pool,
  options: {
    /** A table with `company_id` and an identity `pos` (migration 100), indexed on both. */
    table: 'svc_rt_deliveries' | 'svc_rt_idempotency';
    company: string;
    max: number;
    /** Rows that are never trimmed, as SQL over the table's columns (e.g. claims still running). */
    keep?: string;
  },
): CappedRows {
  const { table, company, max } = options;
  const counted = options.keep ? ` AND NOT (${options.keep})` : '';
  // The oldest rows past `max` in one statement. Two daemons trimming at once pick mostly the same
  // rows (the oldest in their snapshots), so between them they never forget more than the excess.
  const trim = `DELETE FROM ${table} WHERE company_id = $1 AND pos IN (
    SELECT pos FROM ${table} WHERE company_id = $1${counted} ORDER BY pos
    LIMIT greatest((SELECT count(*) FROM ${table} WHERE company_id = $1${counted}) - $2, 0))`;
  const every = trimEvery(max);
  let writes = every - 1;
  return {
    async wrote() {
      writes = (writes + 1) % every;
      if (writes !== 0) return;
      await pool.query(trim, [company, max]).catch(() => {
        writes = every - 1;
      });
    },
  };
}
