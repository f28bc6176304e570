import { join } from 'node:path';
import { AtomicFileWriter } from '../../disk/atomic-file.js';
import { nextTurn } from '../../disk/group-commit.js';
import type { Rows } from './entry-format.js';
import { forEachLine } from './line-stream.js';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
const VERSION = 1;
/** How long one piece of encoding may hold the event loop, and how much it gathers before a write. */
const SLICE_MS = 4;
const PIECE_BYTES = 256 * 1024;

/** One table's records at the instant of the capture (records are frozen: holding them is enough). */
export interface CapturedTable {
  name: string;
  records: object[];
  idOf(record: object, index: number): string;
}

export interface CapturedState {
  /** Every journal entry up to this one is in the snapshot. */
  seq: number;
  /** Every segment up to this one holds only entries up to `seq` (deletable once the snapshot is in place). */
  segment: number;
  tables: CapturedTable[];
}

/**
 * The snapshot is JSON Lines too, readable like the journal: a header line
 * `{"snapshot":1,"seq":…,"segment":…,"tables":{"users":2}}`, one line per record
 * `{"table":"users","id":"u1","record":{…}}`, and a last line `{"end":true,"records":2}`.
 * It is encoded a slice at a time (a few ms each) with the writes in between going through the
 * thread pool, so a snapshot of any size never holds the event loop for long (`timing` gets the
 * longest slice, for the benchmark). Nothing is in place
 * until `commit` (synced, renamed, folder synced).
 */
export async function writeSnapshotFile(
  dir: string,
  state: CapturedState,
  timing = { longestSliceMs: 0 },
): Promise<AtomicFileWriter> {
  const file = await AtomicFileWriter.create(dir, SNAPSHOT_FILE);
  try {
    let records = 0;
    const counts = Object.fromEntries(state.tables.map((t) => [t.name, t.records.length]));
    let piece: string[] = [headerLine(state.seq, state.segment, counts)];
    let bytes = 0;
    let sliceStart = performance.now(); // (after the file's creation: that await does not hold the loop)
    for (const table of state.tables) {
      for (let i = 0; i < table.records.length; i++) {
        const record = table.records[i]!;
        const line = recordLine(table.name, table.idOf(record, i), record);
        piece.push(line);
        bytes += line.length;
        records++;
        if (bytes >= PIECE_BYTES || ((i & 63) === 0 && performance.now() - sliceStart > SLICE_MS)) {
          timing.longestSliceMs = Math.max(timing.longestSliceMs, performance.now() - sliceStart);
          await file.write(Buffer.from(piece.join('\n') + '\n'));
          await nextTurn();
          piece = [];
          bytes = 0;
          sliceStart = performance.now();
        }
      }
    }
    piece.push(endLine(records));
    await file.write(Buffer.from(piece.join('\n') + '\n'));
    return file;
  } catch (err) {
    await file.abort();
    throw err;
  }
}

/** The three kinds of line (also used to seed a data folder for benchmarks). */
export const headerLine = (seq: number, segment: number, tables: Record<string, number>): string =>
  JSON.stringify({ snapshot: VERSION, seq, segment, tables, created_at: new Date().toISOString() });
export const recordLine = (table: string, id: string, record: object): string => JSON.stringify({ table, id, record });
export const endLine = (records: number): string => JSON.stringify({ end: true, records });

export interface LoadedSnapshot {
  seq: number;
  segment: number;
  rows: Rows;
  /** Complete and every line read: only then may the segments it covers be deleted. */
  intact: boolean;
  problems: string[];
}

/** The snapshot in `dir`, or null when there is none. A damaged one is read as far as it goes and reported, never fatal. */
export function readSnapshotFile(dir: string): LoadedSnapshot | null {
  const rows: Rows = new Map();
  const problems: string[] = [];
  let lineNo = 0;
  let header: unknown = null;
  // An end line is only the end if nothing follows it; until then it is held here.
  let end: { line: number; records: unknown } | null = null;
  let records = 0;
  const corrupt = (line: number) => problems.push(`${SNAPSHOT_FILE} line ${line}: skipped a corrupt record line`);
  const found = forEachLine(join(dir, SNAPSHOT_FILE), (line) => {
    lineNo++;
    if (lineNo === 1) return void (header = parse(line));
    if (!validHeader(header)) return;
    if (end) corrupt(end.line);
    end = null;
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
    return { seq: 0, segment: 0, rows: new Map(), intact: false, problems };
  }
  const ended = end as { records: unknown } | null;
  if (!ended || ended.records !== records)
    problems.push(
      `${SNAPSHOT_FILE}: incomplete (${records} records read${ended ? `, ${ended.records} written` : ', no end line'})`,
    );
  return { seq: h.seq, segment: h.segment, rows, intact: problems.length === 0, problems };
}

function validHeader(header: unknown): header is { snapshot: number; seq: number; segment: number } {
  const h = header as { snapshot?: number; seq?: number; segment?: number } | null;
  return h?.snapshot === VERSION && Number.isSafeInteger(h.seq) && Number.isSafeInteger(h.segment);
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}
