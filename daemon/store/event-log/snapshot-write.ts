import { AtomicFileWriter, writeFileAtomicSync } from '../disk/atomic-file.js';
import { nextTurn } from '../disk/group-commit.js';
import type { TypedArray } from './growable.js';
import { FILE, VERSION, type Header, type KINDS, type SnapshotParts } from './index-snapshot.js';

/** A periodic snapshot is encoded in pieces of about this size, one per event-loop turn. */
const PIECE_BYTES = 1024 * 1024;

/** The indexes frozen at one instant, cheaply: views of append-only columns, copies of the rest, and list lengths. */
export interface CapturedSnapshot {
  header: Header;
  arrays: TypedArray[];
  lists: Uint32Array[][];
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
  const lists: Uint32Array[][] = [];
  for (const [name, map] of Object.entries(parts.lists)) {
    const entry = { name, keys: [] as string[], counts: [] as number[] };
    const refs: Uint32Array[] = [];
    for (const [key, list] of map) {
      entry.keys.push(key);
      entry.counts.push(list.length);
      refs.push(list.view());
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
    const refs = snap.lists[l]!;
    for (let k = 0; k < refs.length; k++) {
      const list = refs[k]!;
      piece.push(Buffer.from(list.buffer, list.byteOffset, list.byteLength));
      bytes += list.byteLength;
      if (bytes >= PIECE_BYTES) {
        yield Buffer.concat(piece);
        piece = [];
        bytes = 0;
      }
    }
  }
  if (piece.length > 0) yield Buffer.concat(piece);
}

/** Pads to a multiple of 8 bytes (after `extra` bytes already written before it), so each array starts aligned. */
function pad8(buf: Buffer, extra = 0): Buffer {
  const rest = (buf.length + extra) % 8;
  return rest === 0 ? buf : Buffer.concat([buf, Buffer.alloc(8 - rest, 32)]);
}
