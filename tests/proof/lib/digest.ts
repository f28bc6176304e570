import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A digest of the RECORDS under a data folder, not of its bytes: each JSON document and each JSON
 * line is parsed, fields that change by design on a read (`last_used_at`, touched at most once a
 * minute by an authenticated call) are dropped, and the sorted record hashes are hashed again. So
 * a journal folding into a snapshot, or a document rewritten with the same content, is no change;
 * a record added, removed or edited is. Files that hold no records (lock, log, secrets, temp files,
 * the scheduler's tick marks) are left out.
 */
const SKIP = /(^|\/)(daemon\.lock|daemon\.log|jwt-secret|operator-token|mail-key|code-key)$|\.tmp$|schedule-ticks\.json$|\.lock$/;
const VOLATILE = new Set(['last_used_at']);

export function recordsDigest(dataDir: string): { digest: string; records: number } {
  const hashes: string[] = [];
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
    for (const record of recordsOf(text)) hashes.push(createHash('sha256').update(record).digest('hex'));
  }
  hashes.sort();
  return { digest: createHash('sha256').update(hashes.join('\n')).digest('hex'), records: hashes.length };
}

/** Stable JSON of each record: one document, or one per JSON line; a line that is not JSON counts as its text. */
function recordsOf(text: string): string[] {
  try {
    return [stable(JSON.parse(text))];
  } catch {
    return text.split('\n').filter((l) => l.trim()).map((line) => {
      try {
        return stable(JSON.parse(line));
      } catch {
        return line;
      }
    });
  }
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => !VOLATILE.has(k)).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
