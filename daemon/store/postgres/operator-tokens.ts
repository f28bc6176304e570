import { createHash, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';

/**
 * Operator tokens in team mode (CONTRACT §3, `/api/dev/*`). The database keeps only the SHA-256 of
 * each, so whoever reads svc_operator_tokens or a backup learns no token. Each daemon keeps its own
 * token in its data folder (0600) and registers the hash here; every daemon accepts every
 * registered token, looking them up on each request, so one registered through any daemon (or by
 * hand) works on all of them at once, and a deleted row stops working on the very next request.
 */
export interface OperatorTokenStore {
  /**
   * Moves a plaintext `operator_token` row of svc_secrets (left by an older svc, or by an import
   * from a data folder) to its hash. Resolves the plaintext to the one caller that moved it, so
   * that it can keep it where operators find it; null when there was none.
   */
  adoptPlaintext(label: string): Promise<string | null>;
  isRegistered(token: string): Promise<boolean>;
  register(token: string, label: string): Promise<void>;
  /** True when `presented` is a registered token, compared in constant time against every row. */
  check(presented: string): Promise<boolean>;
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function createOperatorTokenStore(pool: pg.Pool): OperatorTokenStore {
  return {
    async adoptPlaintext(label) {
      // One statement: of daemons starting at once, exactly one deletes the row and gets its value.
      const { rows } = await pool.query<{ value: string }>(
        `WITH old AS (DELETE FROM svc_secrets WHERE name = 'operator_token' RETURNING value),
         kept AS (INSERT INTO svc_operator_tokens (hash, label)
                  SELECT encode(sha256(convert_to(value, 'UTF8')), 'hex'), $1 FROM old
                  ON CONFLICT (hash) DO NOTHING)
         SELECT value FROM old`,
        [label],
      );
      return rows[0]?.value ?? null;
    },
    async isRegistered(token) {
      const { rows } = await pool.query('SELECT 1 FROM svc_operator_tokens WHERE hash = $1', [
        sha256(token).toString('hex'),
      ]);
      return rows.length > 0;
    },
    async register(token, label) {
      await pool.query('INSERT INTO svc_operator_tokens (hash, label) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [
        sha256(token).toString('hex'),
        label,
      ]);
    },
    async check(presented) {
      const given = sha256(presented);
      const { rows } = await pool.query<{ hash: string }>('SELECT hash FROM svc_operator_tokens');
      // Every row is compared, with no early exit, so the time does not tell which one matched.
      let match = false;
      for (const { hash } of rows) match = timingSafeEqual(Buffer.from(hash, 'hex'), given) || match;
      return match;
    },
  };
}
