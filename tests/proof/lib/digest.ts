import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';

/**
 * A digest of the RECORDS under a data folder, not of its bytes: each JSON document is parsed, and a
 * JSON Lines journal of `{ table, op, id, record }` operations is replayed into the rows it leaves;
 * fields that change by design on a read (`last_used_at`, touched at most once a minute by an
 * authenticated call) are dropped, and the sorted record hashes are hashed again. So a journal
 * folding into a snapshot, or a document rewritten with the same content, is no change; a record
 * added, removed or edited is. Left out: files that hold no records (lock, log, secrets, temp
 * files, the scheduler's tick marks), the tables of attempt counters, which a refused request
 * writes by design (SECURITY.md: throttles and failure ceilings are counted, atomically, on disk),
 * and the audit trail, whose purpose is to record refusals (docs/audit.md).
 */
const COUNTER_TABLES = new Set(['rate_buckets', 'failures']);
type Op = { table: string; op: string; id: string; record?: unknown };
const SKIP =
  /(^|\/)(daemon\.lock|daemon\.log|jwt-secret|operator-token|mail-key|code-key)$|\.tmp$|schedule-ticks\.json$|\.lock$|^audit\//;
const VOLATILE = new Set(['last_used_at']);

/** A digest of records, and one per file or table (`parts`), so a change can be named. */
export interface Digest {
  digest: string;
  records: number;
  parts: Record<string, string>;
}

export function recordsDigest(dataDir: string): Digest {
  const hashes: string[] = [];
  const parts: Record<string, string[]> = {};
  for (const entry of readdirSync(dataDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name);
    const rel = relative(dataDir, path);
    if (SKIP.test(rel)) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // renamed away meanwhile: the next digest sees its successor
    }
    for (const record of recordsOf(text)) {
      const hash = createHash('sha256').update(record).digest('hex');
      hashes.push(hash);
      (parts[rel] ??= []).push(hash);
    }
  }
  return digestOf(hashes, parts);
}

function digestOf(hashes: string[], parts: Record<string, string[]>): Digest {
  const join = (list: string[]) => createHash('sha256').update(list.sort().join('\n')).digest('hex');
  const named = Object.fromEntries(Object.entries(parts).map(([name, list]) => [name, join(list)]));
  return { digest: join(hashes), records: hashes.length, parts: named };
}

/** The files or tables whose records differ between two digests. */
export const changedParts = (a: Digest, b: Digest): string[] =>
  [...new Set([...Object.keys(a.parts), ...Object.keys(b.parts)])].filter((k) => a.parts[k] !== b.parts[k]).sort();

/** Stable JSON of each record: one document, or the rows a journal leaves, or one per JSON line; a line that is not JSON counts as its text. */
function recordsOf(text: string): string[] {
  try {
    return [stable(JSON.parse(text))];
  } catch {
    const rows = new Map<string, string>();
    const loose: string[] = [];
    for (const line of text.split('\n').filter((l) => l.trim())) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        loose.push(line);
        continue;
      }
      // A journal line is `{ seq, changes: [ops] }` (store/journal/entry-format.ts); older ones an op or an array.
      const changes = (value as { changes?: unknown })?.changes;
      const ops = (Array.isArray(value) ? value : Array.isArray(changes) ? changes : [value]) as Op[];
      if (!ops.every((o) => o && typeof o === 'object' && typeof o.table === 'string')) {
        loose.push(stable(value));
        continue;
      }
      for (const o of ops) {
        if (COUNTER_TABLES.has(o.table) || (o.table === 'meta' && String(o.id).startsWith('sweep:'))) continue;
        const key = `${o.table}\u0000${o.id}`;
        if (o.op === 'delete' || o.op === 'remove') rows.delete(key);
        else rows.set(key, `${o.table}:${stable(o.record)}`);
      }
    }
    return [...rows.values(), ...loose];
  }
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => !VOLATILE.has(k))
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Team mode's records digest: the same principle over the database at `url` (each row as JSON, the
 * volatile fields dropped, the sorted row hashes hashed again). Left out, as on disk: the schema's
 * history and the tables a refused request writes by design or that change on their own — rate
 * buckets, failure counts and the places of attempts in flight, window counts, the scheduler's
 * tick claims and cursors, `svc login --web` pairings in flight, and the audit trail.
 */
const NOT_RECORDS = new Set([
  'svc_schema_migrations',
  'svc_rate_hits',
  'svc_failures',
  'svc_failure_holds',
  'svc_rt_windows',
  'svc_schedule_ticks',
  'svc_rt_tick_cursors',
  'svc_pairings',
  'svc_audit_entries',
  'svc_audit_heads',
]);

export async function databaseDigest(url: string): Promise<Digest> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_name LIKE 'svc\\_%' ORDER BY 1`,
    );
    const hashes: string[] = [];
    const parts: Record<string, string[]> = {};
    for (const { name } of tables) {
      // Names come from the catalogue, and only plain ones are read.
      if (NOT_RECORDS.has(name) || !/^svc_[a-z_]+$/.test(name)) continue;
      // As json text, parsed here: jsonb would refuse the NUL escapes and lone surrogates a stored doc may hold.
      const { rows } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
      for (const { row } of rows) {
        const hash = createHash('sha256')
          .update(`${name}:${stable(JSON.parse(row))}`)
          .digest('hex');
        hashes.push(hash);
        (parts[name] ??= []).push(hash);
      }
    }
    return digestOf(hashes, parts);
  } finally {
    await client.end();
  }
}
