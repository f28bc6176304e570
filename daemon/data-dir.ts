import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dataFiles } from '../shared/paths.js';

/** Creates the data folder with mode 0700 (and tightens an existing one): it holds every secret of the daemon. */
export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export interface Secrets {
  /** HS256 signing key, 256 bits. */
  jwtSecret: Buffer;
  /** Bearer token of the operator surface (`/api/dev/*`). */
  operatorToken: string;
  /** Seals captured mail at rest. */
  mailKey: Buffer;
  /** Keys the HMAC of e-mailed codes (SECURITY.md: HMAC-SHA256(server key ‖ purpose ‖ email ‖ code)). */
  codeKey: Buffer;
}

/** Reads the daemon's secrets from 0600 files in the data folder, generating each at first start. */
export function loadSecrets(dir: string): Secrets {
  return {
    jwtSecret: Buffer.from(
      readOrCreate(join(dir, dataFiles.jwtSecret), () => randomBytes(32).toString('hex')),
      'hex',
    ),
    operatorToken: readOrCreate(
      join(dir, dataFiles.operatorToken),
      () => `op_${randomBytes(32).toString('base64url')}`,
    ),
    mailKey: Buffer.from(
      readOrCreate(join(dir, 'mail-key'), () => randomBytes(32).toString('hex')),
      'hex',
    ),
    codeKey: Buffer.from(
      readOrCreate(join(dir, 'code-key'), () => randomBytes(32).toString('hex')),
      'hex',
    ),
  };
}

function readOrCreate(file: string, generate: () => string): string {
  try {
    // 'wx' fails when the file exists, so two starts never overwrite each other's secret.
    writeFileSync(file, generate() + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const value = readFileSync(file, 'utf8').trim();
  if (!value) throw new Error(`secret file ${file} is empty; delete it to have a new one generated`);
  return value;
}
