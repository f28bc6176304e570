import { join } from 'node:path';
import { readStoredHead, type StoredHead } from '../engine/record-text.js';
import type { Rows } from './entry-format.js';
import { forEachLineIn } from './line-stream.js';
import { SNAPSHOT_FILE, VERSION } from './snapshot-file.js';
import { SnapshotSource } from './snapshot-source.js';

/** Reading a snapshot (its format: snapshot-file.ts). */

export interface LoadedSnapshot {
  seq: number;
  segment: number;
  rows: Rows;
  /** The key-function fingerprint each table's stored keys were written with. */
  fingerprints: Map<string, string>;
  /** Where the records loaded unread (numbers in `rows`) are read from; null when there are none. */
  source: SnapshotSource | null;
  /** Complete and every line read: only then may the segments it covers be deleted. */
  intact: boolean;
  problems: string[];
}

/** The snapshot in `dir`, or null when there is none. A damaged one is read as far as it goes and reported, never fatal. */
export function readSnapshotFile(dir: string): LoadedSnapshot | null {
  const rows: Rows = new Map();
  const problems: string[] = [];
  let fingerprints = new Map<string, string>();
  let lineNo = 0;
  let header: unknown = null;
  // An end line is only the end if nothing follows it; until then it is held here.
  let end: { line: number; records: unknown } | null = null;
  let records = 0;
  const corrupt = (line: number) => problems.push(`${SNAPSHOT_FILE} line ${line}: skipped a corrupt record line`);
  const path = join(dir, SNAPSHOT_FILE);
  let source: SnapshotSource | null = null;
  let previous: StoredHead | null = null;
  const found = forEachLineIn(path, (buf, start, stop, offset) => {
    lineNo++;
    if (lineNo === 1) {
      header = parse(buf.toString('utf8', start, stop));
      if (validHeader(header)) fingerprints = fingerprintsOf(header);
      return;
    }
    if (!validHeader(header)) return;
    if (end) corrupt(end.line);
    end = null;
    // A line with its keys, of a table whose key functions are known: filed unread, read when first used.
    const head = readStoredHead(buf, start, stop, previous);
    if (head && fingerprints.has(head.table)) {
      previous = head;
      source ??= new SnapshotSource(path);
      let table = rows.get(head.table);
      if (!table) rows.set(head.table, (table = new Map()));
      table.set(head.id, source.add(offset, stop - start, head.keys));
      records++;
      return;
    }
    const line = buf.toString('utf8', start, stop);
    const row = parse(line) as { table?: unknown; id?: unknown; record?: unknown; end?: unknown } | null;
    if (row?.end === true) return void (end = { line: lineNo, records: (row as { records?: unknown }).records });
    if (
      !row ||
      typeof row.table !== 'string' ||
      typeof row.id !== 'string' ||
      typeof row.record !== 'object' ||
      row.record === null
    )
      return void corrupt(lineNo);
    let table = rows.get(row.table);
    if (!table) rows.set(row.table, (table = new Map()));
    table.set(row.id, row.record);
    records++;
  });
  if (!found) return null;
  const h = header as unknown;
  if (!validHeader(h)) {
    problems.push(`${SNAPSHOT_FILE}: the header line is damaged; the snapshot was ignored`);
    return { seq: 0, segment: 0, rows: new Map(), fingerprints: new Map(), source: null, intact: false, problems };
  }
  const ended = end as { records: unknown } | null;
  if (!ended || ended.records !== records)
    problems.push(
      `${SNAPSHOT_FILE}: incomplete (${records} records read${ended ? `, ${ended.records} written` : ', no end line'})`,
    );
  return { seq: h.seq, segment: h.segment, rows, fingerprints, source, intact: problems.length === 0, problems };
}

function validHeader(header: unknown): header is { snapshot: number; seq: number; segment: number } {
  const h = header as { snapshot?: number; seq?: number; segment?: number } | null;
  return h?.snapshot === VERSION && Number.isSafeInteger(h.seq) && Number.isSafeInteger(h.segment);
}

function fingerprintsOf(header: object): Map<string, string> {
  const keys = (header as { keys?: unknown }).keys;
  if (typeof keys !== 'object' || keys === null) return new Map();
  return new Map(Object.entries(keys).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
