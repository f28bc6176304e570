import type pg from 'pg';

export type Row = Record<string, unknown>;
export type Rec = Record<string, unknown>;

/**
 * One runtime table of migration 100 seen as the record engine's table of the same name: how its
 * rows are read in order (a page at a time, after a cursor) and become archive records, and how a
 * record is written back. The record shapes are the JSON store's (daemon/store/runtime/tables.ts).
 */
export interface PgRuntimeTable {
  /** SELECT of one page: $1 the Company, $2 the cursor (null: from the start), LIMIT included. */
  page: string;
  cursorOf(row: Row): unknown;
  /** Firings number their records per event: `seen` counts them within the Company. */
  toRecord(row: Row, seen: Map<string, number>): Rec;
  insert(client: pg.PoolClient, company: string, record: Rec): Promise<unknown>;
  /** The same for many records in one statement, where a table grows with history (transcripts, firings). */
  insertMany?(client: pg.PoolClient, company: string, records: Rec[]): Promise<unknown>;
}

export const PAGE = 1000;
export const byPos = (columns: string, table: string) =>
  `SELECT pos, ${columns} FROM ${table} WHERE company_id = $1 AND ($2::bigint IS NULL OR pos > $2::bigint) ORDER BY pos LIMIT ${PAGE}`;

/** Every row of one runtime table of one Company, oldest first, as archive records. */
export async function* readPgRuntimeTable(
  client: pg.PoolClient,
  table: PgRuntimeTable,
  company: string,
): AsyncGenerator<Rec> {
  const seen = new Map<string, number>();
  let cursor: unknown = null;
  for (;;) {
    const { rows } = await client.query<Row>(table.page, [company, cursor]);
    for (const row of rows) yield table.toRecord(row, seen);
    if (rows.length < PAGE) return;
    cursor = table.cursorOf(rows[rows.length - 1]!);
  }
}
