import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { AUDIT_FOLDER } from '../store/audit/file-audit.js';
import { operatorEntry, parseEntry, positionOf, sealEntry } from '../store/audit/chain.js';
import { listSegments, segmentPath, syncFolder } from '../store/disk/segment-io.js';
import { insertEntries } from '../store/postgres/audit.js';
import type { AuditEntry, NewAuditEntry } from '../store/audit-types.js';
import { AUDIT, type ArchiveRecord } from './archive-tables.js';

/**
 * The audit trail in an archive: every entry exactly as sealed (hash included), in commit order, so
 * the chains verify in the new store as they did in the old. An import goes only into an empty
 * store (import-archive.ts), so nothing can be chained in between; the import then appends its
 * own entry (`operator.import`) on the account stream's head, a link like any other.
 */
export { AUDIT };

const SEGMENT_BYTES = 4 * 1024 * 1024;

/** The entries of a data folder, file by file and line by line; a line that is not an entry is left out (verify names the gap). */
export function* readFolderAudit(dataDir: string): Generator<ArchiveRecord> {
  const dir = join(dataDir, AUDIT_FOLDER);
  if (!existsSync(dir)) return;
  for (const segment of listSegments(dir))
    for (const line of readFileSync(segmentPath(dir, segment), 'utf8').split('\n')) {
      const entry = line ? parseEntry(line) : null;
      if (entry) yield { table: AUDIT, company: null, record: entry as unknown as Record<string, unknown> };
    }
}

/** The entries of a database, in commit order. */
export async function* readPgAudit(client: pg.PoolClient): AsyncGenerator<ArchiveRecord> {
  let after = -1;
  for (;;) {
    const { rows } = await client.query<{ pos: string; body: string }>(
      'SELECT pos, body FROM svc_audit_entries WHERE pos > $1 ORDER BY pos LIMIT 1000',
      [after],
    );
    for (const r of rows) {
      const entry = parseEntry(r.body);
      if (entry) yield { table: AUDIT, company: null, record: entry as unknown as Record<string, unknown> };
    }
    if (rows.length < 1000) return;
    after = Number(rows.at(-1)!.pos);
  }
}

/** Tracks each stream's head and the last position while entries are loaded, to seal the import's own entry after them. */
class Heads {
  readonly heads = new Map<string, { seq: number; hash: string }>();
  position = 0;
  note(e: AuditEntry) {
    this.heads.set(e.stream, { seq: e.seq, hash: e.hash });
    this.position = Math.max(this.position, positionOf(e.id) ?? 0);
  }
  seal(entry: NewAuditEntry): AuditEntry {
    const sealed = sealEntry(entry, ++this.position, this.heads.get('account'));
    this.note(sealed);
    return sealed;
  }
}

/** Loads entries into a data folder being built (`audit/000001.jsonl`, …), as the daemon writes them. */
export function folderAuditLoader(dataDir: string) {
  const dir = join(dataDir, AUDIT_FOLDER);
  const heads = new Heads();
  let segment = 1;
  let size = 0;
  const write = (e: AuditEntry) => {
    const line = `${JSON.stringify(e)}\n`;
    if (size > 0 && size + line.length > SEGMENT_BYTES) segment++, (size = 0);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = segmentPath(dir, segment);
    if (size === 0) writeFileSync(path, line, { mode: 0o600 });
    else appendFileSync(path, line);
    size += Buffer.byteLength(line);
    heads.note(e);
  };
  return {
    add: (record: Record<string, unknown>) => write(record as unknown as AuditEntry),
    finish(own?: NewAuditEntry) {
      if (own) write(heads.seal(own));
      if (existsSync(dir)) syncFolder(dir);
    },
  };
}

/** Loads entries into a database inside the import's transaction, then its own entry and the heads. */
export function pgAuditLoader(client: pg.PoolClient) {
  const heads = new Heads();
  let batch: AuditEntry[] = [];
  const flush = async () => {
    if (batch.length) await insertEntries(client, batch);
    batch = [];
  };
  return {
    async add(record: Record<string, unknown>) {
      const e = record as unknown as AuditEntry;
      heads.note(e);
      batch.push(e);
      if (batch.length >= 500) await flush();
    },
    async finish(own?: NewAuditEntry) {
      if (own) batch.push(heads.seal(own));
      await flush();
      for (const [stream, head] of heads.heads)
        await client.query('INSERT INTO svc_audit_heads (stream, seq, hash) VALUES ($1, $2, $3)', [
          stream,
          head.seq,
          head.hash,
        ]);
    },
  };
}

/** The entry an export or import leaves: the operator acted, on the whole deployment. */
export function transferEntry(
  action: 'operator.export' | 'operator.import',
  at: string,
  details: Record<string, unknown>,
): NewAuditEntry {
  return operatorEntry({ at, action, details });
}
