import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AtomicFileWriter, writeFileAtomicSync } from '../../disk/atomic-file.js';
import { nextTurn } from '../../disk/group-commit.js';
import { segmentPath } from '../../disk/segment-io.js';
import type { Growable, TypedArray } from './growable.js';

/** The live columns and key maps of the indexes, by name. */
export interface SnapshotParts {
  arrays: Record<string, Growable<TypedArray>>;
  lists: Record<string, Map<string, number[]>>;
}

const FILE = 'index.snapshot';
const VERSION = 1;
const KINDS = { Float64Array, Uint32Array, Uint8Array } as const;
/** A periodic snapshot is encoded in pieces of about this size, one per event-loop turn. */
const PIECE_BYTES = 1024 * 1024;

interface Header {
  version: number;
  /** Every segment and its size when the snapshot was taken: the indexes cover exactly these bytes. */
  segments: [number, number][];
  arrays: { name: string; kind: keyof typeof KINDS; length: number }[];
  lists: { name: string; keys: string[]; counts: number[] }[];
}

/** The indexes frozen at one instant, cheaply: views of append-only columns, copies of the rest, and list lengths. */
export interface CapturedSnapshot {
  header: Header;
  arrays: TypedArray[];
  lists: number[][][];
}

/**
 * Takes the snapshot's contents at the instant `segments` (name, durable size) are exactly what
 * the indexes hold. Costs O(columns changed in place + distinct keys), not O(events): a column
 * only ever appended to is viewed (later pushes land past the view, or in a new buffer), a list
 * is cut at its length now when encoded. So the log can take one every N events without a stall.
 */
export function captureSnapshot(segments: [number, number][], parts: SnapshotParts): CapturedSnapshot {
  const header: Header = { version: VERSION, segments, arrays: [], lists: [] };
  const arrays: TypedArray[] = [];
  for (const [name, column] of Object.entries(parts.arrays)) {
    const view = column.contents();
    arrays.push(column.rewritten ? (view.slice() as TypedArray) : view);
    header.arrays.push({ name, kind: view.constructor.name as keyof typeof KINDS, length: view.length });
  }
  const lists: number[][][] = [];
  for (const [name, map] of Object.entries(parts.lists)) {
    const entry = { name, keys: [] as string[], counts: [] as number[] };
    const refs: number[][] = [];
    for (const [key, list] of map) {
      entry.keys.push(key);
      entry.counts.push(list.length);
      refs.push(list);
    }
    header.lists.push(entry);
    lists.push(refs);
  }
  return { header, arrays, lists };
}

/** Writes the snapshot at once (a clean close: nothing else is waiting). */
export function writeSnapshot(eventsDir: string, snap: CapturedSnapshot): void {
  writeFileAtomicSync(eventsDir, FILE, [...encodeInPieces(snap)]);
}

/** Writes the snapshot in pieces across event-loop turns (a periodic snapshot, while the log is in use). */
export async function writeSnapshotInPieces(eventsDir: string, snap: CapturedSnapshot): Promise<void> {
  const file = await AtomicFileWriter.create(eventsDir, FILE);
  try {
    for (const chunk of encodeInPieces(snap)) {
      await file.write(chunk);
      await nextTurn();
    }
    await file.commit();
  } catch (err) {
    await file.abort();
    throw err;
  }
}

/** The snapshot's bytes, a piece at a time. Layout: 4-byte header length, the header as JSON, the arrays (8-aligned), the lists' positions. */
function* encodeInPieces(snap: CapturedSnapshot): Generator<Buffer> {
  const json = pad8(Buffer.from(JSON.stringify(snap.header)), 4);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  yield Buffer.concat([size, json]);
  for (const values of snap.arrays) yield pad8(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  let piece: Buffer[] = [];
  let bytes = 0;
  for (let l = 0; l < snap.lists.length; l++) {
    const counts = snap.header.lists[l]!.counts;
    const refs = snap.lists[l]!;
    for (let k = 0; k < refs.length; k++) {
      const out = new Uint32Array(counts[k]!);
      const list = refs[k]!;
      for (let i = 0; i < out.length; i++) out[i] = list[i]!;
      piece.push(Buffer.from(out.buffer));
      bytes += out.byteLength;
      if (bytes >= PIECE_BYTES) {
        yield Buffer.concat(piece);
        piece = [];
        bytes = 0;
      }
    }
  }
  if (piece.length > 0) yield Buffer.concat(piece);
}

/**
 * Fills `parts` from the snapshot and returns where the lines it does not cover start, or null
 * (no snapshot, or it no longer matches the segments: then the caller scans them all). It is
 * trusted when every segment it covers is still there with the same size, except the last one,
 * which may have grown since (appends after the snapshot: the tail to scan).
 */
export function readSnapshot(eventsDir: string, segments: number[], parts: SnapshotParts): { segment: number; offset: number } | null {
  const path = join(eventsDir, FILE);
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return null;
  }
  try {
    const headerEnd = 4 + data.readUInt32LE(0);
    const header = JSON.parse(data.toString('utf8', 4, headerEnd)) as Header;
    if (header.version !== VERSION || !coversStartOf(eventsDir, header.segments, segments) || expectedSize(header, headerEnd) !== data.length) return discard(path);
    let offset = headerEnd;
    for (const { name, kind, length } of header.arrays) {
      const Kind = KINDS[kind];
      const bytes = length * Kind.BYTES_PER_ELEMENT;
      // Copied out of the file buffer (alignment, and so the buffer can be freed).
      parts.arrays[name]!.replace(new Kind((data.buffer as ArrayBuffer).slice(data.byteOffset + offset, data.byteOffset + offset + bytes)));
      offset += bytes + ((8 - (bytes % 8)) % 8);
    }
    for (const { name, keys, counts } of header.lists) {
      const map = parts.lists[name]!;
      map.clear();
      keys.forEach((key, i) => {
        const bytes = counts[i]! * 4;
        map.set(key, Array.from(new Uint32Array((data.buffer as ArrayBuffer).slice(data.byteOffset + offset, data.byteOffset + offset + bytes))));
        offset += bytes;
      });
    }
    const last = header.segments.at(-1);
    return last ? { segment: last[0], offset: last[1] } : { segment: segments[0] ?? 1, offset: 0 };
  } catch {
    // A damaged snapshot is only a slower start: empty whatever was filled, and scan.
    for (const column of Object.values(parts.arrays)) column.replace([]);
    for (const map of Object.values(parts.lists)) map.clear();
    return discard(path);
  }
}

/** The snapshot's segments are the first of the folder's, same sizes, the last one possibly grown. */
function coversStartOf(eventsDir: string, covered: [number, number][], segments: number[]): boolean {
  if (covered.length > segments.length) return false;
  return covered.every(([n, size], i) => {
    if (n !== segments[i]) return false;
    const now = statSync(segmentPath(eventsDir, n)).size;
    return i === covered.length - 1 ? now >= size && endsLine(segmentPath(eventsDir, n), size) : now === size;
  });
}

/** The covered bytes end with a whole line (else the segment was edited, not appended to). */
function endsLine(path: string, size: number): boolean {
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const byte = Buffer.alloc(1);
    return readSync(fd, byte, 0, 1, size - 1) === 1 && byte[0] === 10;
  } finally {
    closeSync(fd);
  }
}

function expectedSize(header: Header, headerEnd: number): number {
  let size = headerEnd;
  for (const { kind, length } of header.arrays) {
    const bytes = length * KINDS[kind].BYTES_PER_ELEMENT;
    size += bytes + ((8 - (bytes % 8)) % 8);
  }
  for (const { counts } of header.lists) for (const count of counts) size += count * 4;
  return size;
}

function discard(path: string): null {
  rmSync(path, { force: true });
  return null;
}

/** Pads to a multiple of 8 bytes (after `extra` bytes already written before it), so each array starts aligned. */
function pad8(buf: Buffer, extra = 0): Buffer {
  const rest = (buf.length + extra) % 8;
  return rest === 0 ? buf : Buffer.concat([buf, Buffer.alloc(8 - rest, 32)]);
}
