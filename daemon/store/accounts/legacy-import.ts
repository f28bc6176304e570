import { existsSync, openSync, fsyncSync, closeSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Table } from '../engine/types.js';
import type { MetaRecord } from './expiry.js';
import type { AccountTables } from './tables.js';

/**
 * Upgrade in place (docs/storage.md, "Upgrading a data folder"): the lowdb documents of earlier
 * releases are imported into the accounts journal on the first start, each in ONE write together
 * with a marker row in `meta`. Only once that write is durable is the old file renamed to
 * `<name>.json.pre-journal` (the backup). A crash before the write leaves the old file to import
 * again; a crash after it leaves the marker, and the next start only renames. Exactly once either way.
 */

type Rows = Record<string, unknown>;
interface Part {
  table: Table<object>;
  /** The collection's name in the old document. */
  field: string;
  /** When a row may be forgotten (tables that sweep): rows dead already are not imported. */
  deadMs?: (row: never) => number;
}

const DAY = 24 * 3600_000;
const ms = (iso: unknown, plus = 0) =>
  typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) + plus : Number.MAX_SAFE_INTEGER;

function partsOf(t: AccountTables): Record<string, Part[]> {
  const p = <T extends object>(table: Table<T>, field: string, deadMs?: (row: T) => number): Part => ({
    table: table as unknown as Table<object>,
    field,
    ...(deadMs ? { deadMs: deadMs as (row: never) => number } : {}),
  });
  return {
    accounts: [
      p(t.users, 'users'),
      p(t.invites, 'invites'),
      p(t.sessions, 'sessions', (s) => ms(s.revoked_at ?? s.expires_at, DAY)),
      p(t.codes, 'codes', (c) => ms(c.ended_at ?? c.expires_at, DAY)),
    ],
    outbox: [p(t.mail, 'mail')],
    companies: [p(t.companies, 'companies')],
    keys: [p(t.secretKeys, 'secret_keys'), p(t.accountKeys, 'account_keys')],
    factors: [
      p(t.challenges, 'challenges', (c) => Math.min(ms(c.ended_at), ms(c.expires_at))),
      p(t.passkeys, 'passkeys'),
      p(t.wallets, 'wallets'),
    ],
  };
}

/** The lowdb file names of earlier releases, in the order they are imported. */
export const LEGACY_FILES = ['accounts', 'outbox', 'companies', 'keys', 'factors'] as const;

export async function importLegacyFiles(
  dataDir: string,
  t: AccountTables,
  options: { outboxMax: number; nowMs: number },
): Promise<string[]> {
  const done: string[] = [];
  const parts = partsOf(t);
  for (const name of LEGACY_FILES) {
    const file = join(dataDir, `${name}.json`);
    const markerId = `import:${name}.json`;
    if (!existsSync(file)) continue;
    if (!t.meta.get(markerId)) {
      const doc = readDocument(file);
      await t.space.write((tx) => {
        for (const part of parts[name]!) {
          // The old stores dropped ended rows at their next write; those are left in the backup only.
          const rows = rowsOf(doc, part.field, name === 'outbox' ? options.outboxMax : Infinity);
          for (const row of rows)
            if (!part.deadMs || part.deadMs(row as never) > options.nowMs) tx.put(part.table, row);
        }
        tx.put(t.meta, { id: markerId, imported_at: new Date(options.nowMs).toISOString() } satisfies MetaRecord);
      });
      done.push(name);
    }
    // The import is durable: the old file becomes the backup.
    renameSync(file, `${file}.pre-journal`);
    syncFolder(dataDir);
  }
  return done;
}

function readDocument(file: string): Rows {
  const text = readFileSync(file, 'utf8');
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc as Rows;
  } catch {
    // fall through to the refusal below
  }
  // Damage from outside svc: refuse rather than start empty and lose what the file held.
  throw new Error(`data file ${file} is not valid JSON; restore it from a backup or move it away to start empty`);
}

function rowsOf(doc: Rows, field: string, keepLast: number): object[] {
  const rows = Array.isArray(doc[field])
    ? (doc[field] as unknown[]).filter((r): r is object => Boolean(r) && typeof r === 'object')
    : [];
  return rows.length > keepLast ? rows.slice(rows.length - keepLast) : rows;
}

function syncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
