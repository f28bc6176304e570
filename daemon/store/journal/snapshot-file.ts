import { AtomicFileWriter } from '../disk/atomic-file.js';
import { nextTurn } from '../disk/group-commit.js';
import type { StoredLines } from '../engine/types.js';

export const SNAPSHOT_FILE = 'snapshot.jsonl';
export const VERSION = 1;
/** How long one piece of encoding may hold the event loop, and how much it gathers before a write. */
const SLICE_MS = 4;
const PIECE_BYTES = 256 * 1024;

/** One table's records at the instant of the capture (records are frozen, lines immutable: holding them is enough). */
export interface CapturedTable {
  name: string;
  ids: string[];
  /** A record, or the position of its line in `stored` (a record never read: its line is copied as it is). */
  values: (object | number)[];
  stored: StoredLines | null;
  /** The fingerprint of the key functions the lines' keys come from (none: lines without keys). */
  fingerprint?: string;
  /** The line of a record (a stored line is written as it is). */
  encode(id: string, value: object): string;
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
    const counts = Object.fromEntries(state.tables.map((t) => [t.name, t.values.length]));
    const keys = Object.fromEntries(state.tables.filter((t) => t.fingerprint).map((t) => [t.name, t.fingerprint!]));
    let piece: string[] = [headerLine(state.seq, state.segment, counts, keys)];
    let bytes = 0;
    let sliceStart = performance.now(); // (after the file's creation: that await does not hold the loop)
    for (const table of state.tables) {
      for (let i = 0; i < table.values.length; i++) {
        const value = table.values[i]!;
        const line = typeof value === 'number' ? table.stored!.line(value) : table.encode(table.ids[i]!, value);
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

/**
 * The three kinds of line (also used to seed a data folder for benchmarks). `keys`: each table's
 * key-function fingerprint, for the tables whose lines carry their keys. The version stays 1: a
 * release before the keys reads these files (it ignores the fields it does not know).
 */
export const headerLine = (
  seq: number,
  segment: number,
  tables: Record<string, number>,
  keys: Record<string, string> = {},
): string => JSON.stringify({ snapshot: VERSION, seq, segment, tables, keys, created_at: new Date().toISOString() });
export const recordLine = (table: string, id: string, record: object): string => JSON.stringify({ table, id, record });
export const endLine = (records: number): string => JSON.stringify({ end: true, records });
