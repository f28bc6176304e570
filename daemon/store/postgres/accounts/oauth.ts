import type pg from 'pg';
import { GRANT_BINDING_KEPT_MS, GRANT_BINDING_KIND, type OAuthRecord, type OAuthStore } from '../../oauth-types.js';

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
const recordOf = (r: Row): OAuthRecord => ({ ...r, expires_at: iso(r.expires_at), consumed_at: iso(r.consumed_at) });
const COLUMNS = 'kind, id_hash, grant_id, uid, expires_at, consumed_at, payload';

/**
 * Team mode's authorization-server records (`svc_oauth_records`, migration 5). Nothing is cached:
 * a grant revoked through one daemon is gone for every daemon's next request. A consume is one
 * conditional UPDATE, so of two daemons redeeming the same code, one row count is 1 and the other 0.
 */
export function createPostgresOAuthStore(pool: pg.Pool): OAuthStore {
  const one = async (where: string, values: unknown[]) => {
    const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM svc_oauth_records WHERE ${where} LIMIT 1`, values);
    return rows[0] ? recordOf(rows[0]) : undefined;
  };
  return {
    async put(r, nowIso) {
      // Expired rows are only ever refused: a few go with each write (bounded per call). A grant
      // binding stays a while longer, for the audit trail's expiry check to see it.
      await pool.query(
        `DELETE FROM svc_oauth_records WHERE (kind, id_hash) IN
           (SELECT kind, id_hash FROM svc_oauth_records
             WHERE expires_at <= $1 AND (kind <> $2 OR expires_at <= $3) LIMIT 20)`,
        [nowIso, GRANT_BINDING_KIND, new Date(Date.parse(nowIso) - GRANT_BINDING_KEPT_MS).toISOString()],
      );
      await pool.query(
        `INSERT INTO svc_oauth_records (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
         ON CONFLICT (kind, id_hash) DO UPDATE SET grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           expires_at = EXCLUDED.expires_at, consumed_at = EXCLUDED.consumed_at, payload = EXCLUDED.payload`,
        [r.kind, r.id_hash, r.grant_id, r.uid, r.expires_at, r.consumed_at, JSON.stringify(r.payload)],
      );
    },
    find: (kind, idHash, nowIso) =>
      one('kind = $1 AND id_hash = $2 AND (expires_at IS NULL OR expires_at > $3)', [kind, idHash, nowIso]),
    findByUid: (kind, uid, nowIso) =>
      one('kind = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > $3)', [kind, uid, nowIso]),
    async consume(kind, idHash, atIso) {
      const { rowCount } = await pool.query(
        `UPDATE svc_oauth_records
           SET consumed_at = $3, payload = payload || jsonb_build_object('consumed', floor(extract(epoch from $3::timestamptz))::bigint)
         WHERE kind = $1 AND id_hash = $2 AND consumed_at IS NULL`,
        [kind, idHash, atIso],
      );
      return rowCount === 1;
    },
    async remove(kind, idHash) {
      await pool.query('DELETE FROM svc_oauth_records WHERE kind = $1 AND id_hash = $2', [kind, idHash]);
    },
    async removeGrant(grantId) {
      await pool.query('DELETE FROM svc_oauth_records WHERE grant_id = $1', [grantId]);
    },
    async stamp(kind, idHash, field, atIso) {
      await pool.query(
        'UPDATE svc_oauth_records SET payload = payload || jsonb_build_object($3::text, $4::text) WHERE kind = $1 AND id_hash = $2',
        [kind, idHash, field, atIso],
      );
    },
    async listByUid(kind, uid, nowIso) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM svc_oauth_records WHERE kind = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [kind, uid, nowIso],
      );
      return rows.map(recordOf);
    },
    async listExpiring(kind, afterIso, untilIso) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM svc_oauth_records WHERE kind = $1 AND expires_at > $2 AND expires_at <= $3`,
        [kind, afterIso, untilIso],
      );
      return rows.map(recordOf);
    },
    async removeGrantsOfUser(userId) {
      await pool.query(
        `DELETE FROM svc_oauth_records WHERE grant_id IN
           (SELECT grant_id FROM svc_oauth_records WHERE kind = $1 AND uid = $2 AND grant_id IS NOT NULL)`,
        [GRANT_BINDING_KIND, userId],
      );
    },
  };
}
