import type pg from 'pg';
import { withTransaction } from './connect.js';
import type { PairingRecord, PairingStore } from '../pairing-store.js';

/**
 * Team mode's pairings (`svc_pairings`, migration 90): every daemon on the database sees the same
 * pending pairings, so the CLI may poll daemon A while the browser approves on daemon B behind one
 * load balancer. The record is kept whole in `doc json` (a client name may hold any character);
 * the columns copy what lookups and the check-and-set use.
 */
export function createPostgresPairingStore(pool: pg.Pool): PairingStore {
  const one = async (where: string, value: string) => {
    const { rows } = await pool.query<{ doc: PairingRecord }>(
      `SELECT doc FROM svc_pairings WHERE ${where} = $1 ORDER BY expires_at DESC LIMIT 1`,
      [value],
    );
    return rows[0]?.doc;
  };
  return {
    async create(record) {
      // Expired pairings are only ever refused: sweep them as new ones come (bounded per call).
      await pool.query(
        'DELETE FROM svc_pairings WHERE id IN (SELECT id FROM svc_pairings WHERE expires_at <= $1 LIMIT 100)',
        [record.created_at],
      );
      await pool.query(
        `INSERT INTO svc_pairings (id, device_hash, code_hash, status, expires_at, doc)
         VALUES ($1, $2, $3, $4, $5, $6::json)`,
        [record.id, record.device_hash, record.code_hash, record.status, record.expires_at, JSON.stringify(record)],
      );
    },
    findByDevice: (hash) => one('device_hash', hash),
    findByCode: (hash) => one('code_hash', hash),
    transition: (id, from, patch, nowIso) =>
      // The row lock makes the check-and-set single use across daemons: of two approvals (or two
      // collections) racing on different daemons, the second waits, then finds the status moved on.
      withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ doc: PairingRecord }>(
          'SELECT doc FROM svc_pairings WHERE id = $1 AND status = $2 AND expires_at > $3 FOR UPDATE',
          [id, from, nowIso],
        );
        if (!rows[0]) return null;
        const next: PairingRecord = { ...rows[0].doc, ...patch };
        await client.query('UPDATE svc_pairings SET status = $2, expires_at = $3, doc = $4::json WHERE id = $1', [
          id,
          next.status,
          next.expires_at,
          JSON.stringify(next),
        ]);
        return next;
      }),
  };
}
