import type { Change } from '../engine/memory-space.js';

/** A change as it is stored: the record's id written beside it, so a replay needs no table spec. */
export type StoredChange =
  | { op: 'put'; table: string; id: string; record: object }
  | { op: 'remove'; table: string; id: string };

export interface JournalEntry {
  /** The write's number: 1, 2, 3… in the order the writes were made. A snapshot covers every entry up to its `seq`. */
  seq: number;
  changes: StoredChange[];
}

/**
 * One write is one line: `{"seq":7,"changes":[{"op":"put","table":"users","id":"u1","record":{…}},
 * {"op":"remove","table":"sessions","id":"s9"}]}`. All of a write's changes are on one line, so a
 * crash keeps all of them or none (a torn line is cut at the next open).
 */
export function encodeEntry(seq: number, changes: Change[], idOf: (table: string, record: object) => string): string {
  const stored = changes.map(
    (c): StoredChange =>
      c.op === 'put'
        ? { op: 'put', table: c.table, id: idOf(c.table, c.record), record: c.record }
        : { op: 'remove', table: c.table, id: c.id },
  );
  return JSON.stringify({ seq, changes: stored });
}

/** The entry on a line, or null when the line is not one (corrupt, foreign, hand-edited into another shape). */
export function decodeEntry(line: string): JournalEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const entry = value as JournalEntry;
  if (
    typeof entry !== 'object' ||
    entry === null ||
    !Number.isSafeInteger(entry.seq) ||
    entry.seq < 1 ||
    !Array.isArray(entry.changes)
  )
    return null;
  return entry.changes.every(isStoredChange) ? entry : null;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

function isStoredChange(c: unknown): c is StoredChange {
  if (!isObject(c)) return false;
  const change = c as Record<string, unknown>;
  if (typeof change.table !== 'string' || typeof change.id !== 'string') return false;
  return change.op === 'remove' || (change.op === 'put' && isObject(change.record));
}

/** Records by table and id: what a snapshot holds (a record, or the position of its line not read yet) and a replay builds. */
export type Rows = Map<string, Map<string, object | number>>;

export function applyStored(rows: Rows, changes: StoredChange[]): void {
  for (const c of changes) {
    let table = rows.get(c.table);
    if (!table) rows.set(c.table, (table = new Map()));
    if (c.op === 'put') table.set(c.id, c.record);
    else table.delete(c.id);
  }
}
