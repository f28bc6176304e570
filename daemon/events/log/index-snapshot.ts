import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Growable, TypedArray } from './growable.js';
import { segmentPath } from './segment-io.js';

/** The live columns and key maps of the indexes, by name. */
export interface SnapshotParts {
  arrays: Record<string, Growable<TypedArray>>;
  lists: Record<string, Map<string, number[]>>;
}

const FILE = 'index.snapshot';
const VERSION = 1;
const KINDS = { Float64Array, Uint32Array, Uint8Array } as const;

interface Header {
  version: number;
  /** Every segment and its exact size when the snapshot was taken: any change (an append, a cut, a deleted file) voids it. */
  segments: [number, number][];
  arrays: { name: string; kind: keyof typeof KINDS; length: number }[];
  lists: { name: string; keys: string[]; counts: number[] }[];
}

/**
 * The indexes as they were at a clean close, so the next start reads one file instead of every
 * line. It is only trusted when every segment still has exactly the size it had then; anything
 * appended, cut or lost since (a crash included) makes the log scan the segments as usual.
 * Layout: 4-byte header length, the header as JSON, then the arrays and the lists' positions.
 */
export function writeSnapshot(eventsDir: string, segments: number[], parts: SnapshotParts): void {
  const header: Header = { version: VERSION, segments: segments.map((n) => [n, statSync(segmentPath(eventsDir, n)).size]), arrays: [], lists: [] };
  const body: Buffer[] = [];
  for (const [name, column] of Object.entries(parts.arrays)) {
    const values = column.contents();
    header.arrays.push({ name, kind: values.constructor.name as keyof typeof KINDS, length: values.length });
    body.push(pad8(Buffer.from(values.buffer, values.byteOffset, values.byteLength)));
  }
  for (const [name, map] of Object.entries(parts.lists)) {
    const entry = { name, keys: [...map.keys()], counts: [] as number[] };
    for (const list of map.values()) {
      entry.counts.push(list.length);
      body.push(Buffer.from(Uint32Array.from(list).buffer));
    }
    header.lists.push(entry);
  }
  const json = pad8(Buffer.from(JSON.stringify(header)), 4);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  // Written aside and renamed into place, so a crash mid-write leaves no half snapshot.
  const tmp = join(eventsDir, `${FILE}.tmp`);
  const fd = openSync(tmp, 'w', 0o600);
  try {
    for (const chunk of [size, json, ...body]) writeSync(fd, chunk);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(eventsDir, FILE));
}

/** Fills `parts` from the snapshot and returns true, or returns false (no snapshot, or it no longer matches the segments). */
export function readSnapshot(eventsDir: string, segments: number[], parts: SnapshotParts): boolean {
  const path = join(eventsDir, FILE);
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return false;
  }
  try {
    const headerEnd = 4 + data.readUInt32LE(0);
    const header = JSON.parse(data.toString('utf8', 4, headerEnd)) as Header;
    const matches =
      header.version === VERSION &&
      header.segments.length === segments.length &&
      header.segments.every(([n, size], i) => n === segments[i] && statSync(segmentPath(eventsDir, n)).size === size);
    if (!matches || expectedSize(header, headerEnd) !== data.length) return discard(path);
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
    return true;
  } catch {
    // A damaged snapshot is only a slower start: empty whatever was filled, and scan.
    for (const column of Object.values(parts.arrays)) column.replace([]);
    for (const map of Object.values(parts.lists)) map.clear();
    return discard(path);
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

function discard(path: string): false {
  rmSync(path, { force: true });
  return false;
}

/** Pads to a multiple of 8 bytes (after `extra` bytes already written before it), so each array starts aligned. */
function pad8(buf: Buffer, extra = 0): Buffer {
  const rest = (buf.length + extra) % 8;
  return rest === 0 ? buf : Buffer.concat([buf, Buffer.alloc(8 - rest, 32)]);
}
