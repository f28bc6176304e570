import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Secrets } from '../../data-dir.js';

/**
 * The deployment's keys in team mode: three of the four secrets the data folder holds as 0600 files
 * (daemon/data-dir.ts), here rows of `svc_secrets`, so every daemon on one database signs, seals
 * and checks with the same keys and nothing else has to be copied between machines. The fourth,
 * the operator token, is not among them: the database keeps only hashes of operator tokens
 * (operator-tokens.ts).
 */
export type DatabaseSecrets = Omit<Secrets, 'operatorToken'>;

const GENERATORS: Record<string, () => string> = {
  jwt_secret: () => randomBytes(32).toString('hex'),
  mail_key: () => randomBytes(32).toString('hex'),
  code_key: () => randomBytes(32).toString('hex'),
};

/**
 * Reads the secrets, creating any that is missing. Race-free without a lock: every daemon offers
 * its own fresh value with ON CONFLICT DO NOTHING, exactly one insert wins, and everyone then reads
 * the winner's row. Values are returned, never logged; errors name the secret, not its value.
 */
export async function loadDatabaseSecrets(pool: pg.Pool): Promise<DatabaseSecrets> {
  const names = Object.keys(GENERATORS);
  await pool.query(
    'INSERT INTO svc_secrets (name, value) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (name) DO NOTHING',
    [names, names.map((n) => GENERATORS[n]!())],
  );
  const { rows } = await pool.query<{ name: string; value: string }>(
    'SELECT name, value FROM svc_secrets WHERE name = ANY($1::text[])',
    [names],
  );
  const value = (name: string) => {
    const row = rows.find((r) => r.name === name);
    if (!row) throw new Error(`the database has no ${name} secret after creating it; check svc_secrets`);
    return row.value;
  };
  return {
    jwtSecret: hexKey('jwt_secret', value('jwt_secret')),
    mailKey: hexKey('mail_key', value('mail_key')),
    codeKey: hexKey('code_key', value('code_key')),
  };
}

/** A key set by hand (a rotation) must still be 32 bytes of hex, or signing would silently weaken. */
function hexKey(name: string, value: string): Buffer {
  if (!/^[0-9a-f]{64}$/i.test(value))
    throw new Error(`secret ${name} in svc_secrets must be 64 hex characters (32 bytes)`);
  return Buffer.from(value, 'hex');
}

/** The secret names, for the docs and the rotation test. */
export const SECRET_NAMES = Object.keys(GENERATORS);
