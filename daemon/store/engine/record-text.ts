import { createHash } from 'node:crypto';
import { keysOf } from './buckets.js';
import type { IndexKey, TableSpec } from './types.js';

/**
 * A snapshot line that carries the record's index keys, in the order of the table's indexes:
 * `{"table":"users","id":"u1","keys":["ada@example.com"],"record":{…}}`. Loading such a line
 * files the record without parsing it (JSON.parse and the collection of the objects it builds
 * were most of a start's cost); the record is read from the file the first time it is used. The
 * keys are trusted only while the table's fingerprint (`fingerprintOf`) is the snapshot's.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const HEAD = Buffer.from('{"table":"');
const ID = Buffer.from('","id":"');
const KEYS = Buffer.from('","keys":[');
const RECORD = Buffer.from(',"record":{');

export interface StoredHead {
  table: string;
  id: string;
  keys: IndexKey[];
}

/**
 * The table, id and keys of a line in `buf[start, end)`, read from its bytes without parsing the
 * record, or null when the line is not in that plain shape (no keys: an older release's line; an
 * escaped character in a name, id or key): parse it whole then. The previous line's table name and
 * keys are reused where the bytes are the same (lines come grouped by table, in first-put order, so
 * neighbours often share a key, such as the minute they expire): one string instead of thousands.
 */
export function readStoredHead(
  buf: Buffer,
  start: number,
  end: number,
  previous: StoredHead | null,
): StoredHead | null {
  const lastTable = previous?.table ?? '';
  if (end - start < 40 || buf[end - 1] !== 125 || !at(buf, start, HEAD)) return null;
  let p = start + HEAD.length;
  const tableEnd = stringEnd(buf, p, end);
  if (tableEnd < 0 || !at(buf, tableEnd, ID)) return null;
  const table = sameText(lastTable, buf, p, tableEnd) ? lastTable : decode(buf, p, tableEnd);
  p = tableEnd + ID.length;
  const idEnd = stringEnd(buf, p, end);
  if (idEnd < 0 || !at(buf, idEnd, KEYS)) return null;
  const id = decode(buf, p, idEnd);
  p = idEnd + KEYS.length;
  const keys: IndexKey[] = [];
  while (buf[p] !== 93) {
    if (buf[p] === QUOTE) {
      const e = stringEnd(buf, p + 1, end);
      if (e < 0) return null;
      const same = previous && table === previous.table ? previous.keys[keys.length] : null;
      keys.push(typeof same === 'string' && sameText(same, buf, p + 1, e) ? same : decode(buf, p + 1, e));
      p = e + 1;
    } else if (buf[p] === 110 && buf[p + 1] === 117 && buf[p + 2] === 108 && buf[p + 3] === 108) {
      keys.push(null);
      p += 4;
    } else if (buf[p] === 91) {
      const list: string[] = [];
      for (p++; buf[p] === QUOTE; ) {
        const e = stringEnd(buf, p + 1, end);
        if (e < 0) return null;
        list.push(decode(buf, p + 1, e));
        p = buf[e + 1] === 44 && buf[e + 2] === QUOTE ? e + 2 : e + 1;
      }
      if (buf[p++] !== 93) return null;
      keys.push(list);
    } else return null;
    if (buf[p] === 44) p++;
    else if (buf[p] !== 93) return null;
  }
  return at(buf, p + 1, RECORD) ? { table, id, keys } : null;
}

/** The record of a stored line (the caller freezes it). Throws when the line is damaged. */
export function parseStoredRecord(line: string): object {
  const { record } = JSON.parse(line) as { record?: unknown };
  if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new Error('not a record line');
  return record;
}

/** The line that stores `record` with its keys (in the order of the spec's indexes). */
export function encodeLine<T extends object>(spec: TableSpec<T>, id: string, record: T): string {
  const keys = Object.values(spec.indexes ?? {}).map((keyOf) => {
    const key = keyOf(record);
    return typeof key === 'string' ? key : keysOf(key).length > 0 ? key : null;
  });
  return JSON.stringify({ table: spec.name, id, keys, record });
}

/**
 * What the stored keys were computed by: the id and key functions' source and `spec.version`. A
 * snapshot written by code whose key functions differ (another release) has its keys recomputed.
 */
export function fingerprintOf(spec: TableSpec<object>): string {
  const indexes = Object.entries(spec.indexes ?? {}).map(([name, fn]) => [name, String(fn)]);
  const text = JSON.stringify([spec.name, spec.version ?? 0, String(spec.id), indexes]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** The index of the closing quote of a JSON string starting at `p` (after its opening quote), or -1 if it holds an escape. */
function stringEnd(buf: Buffer, p: number, end: number): number {
  for (; p < end; p++) {
    const c = buf[p]!;
    if (c === QUOTE) return p;
    if (c === BACKSLASH) return -1;
  }
  return -1;
}

function at(buf: Buffer, p: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (buf[p + i] !== bytes[i]) return false;
  return true;
}

function sameText(s: string, buf: Buffer, from: number, to: number): boolean {
  if (s.length !== to - from) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[from + i]) return false;
  return true;
}

/** A fresh string (never a slice of something larger that it would keep alive). */
function decode(buf: Buffer, from: number, to: number): string {
  for (let i = from; i < to; i++) if (buf[i]! >= 0x80) return buf.toString('utf8', from, to);
  return buf.toString('latin1', from, to);
}
