import type pg from 'pg';

interface Row {
  kind: string;
  id_hash: string;
  grant_id: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
  payload: Record<string, unknown>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The authorization server's records (`svc_oauth_records`) as archive records: the same shape the
 * data folder's `oauth_records` table keeps (daemon/store/oauth-types.ts), times as ISO text.
 */
export async function* readPgOAuthRecords(client: pg.PoolClient): AsyncGenerator<Record<string, unknown>> {
  const { rows } = await client.query<Row>(
    `SELECT kind, id_hash, grant_id, uid, expires_at, consumed_at, payload FROM svc_oauth_records ORDER BY kind, id_hash`,
  );
  for (const r of rows) yield { ...r, expires_at: iso(r.expires_at), consumed_at: iso(r.consumed_at) };
}

export async function insertPgOAuthRecord(client: pg.PoolClient, r: Record<string, unknown>): Promise<void> {
  await client.query(
    `INSERT INTO svc_oauth_records (kind, id_hash, grant_id, uid, expires_at, consumed_at, payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
    [
      r.kind,
      r.id_hash,
      r.grant_id ?? null,
      r.uid ?? null,
      r.expires_at ?? null,
      r.consumed_at ?? null,
      JSON.stringify(r.payload ?? {}),
    ],
  );
}
