import { closeSync, fstatSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { segmentPath } from '../disk/segment-io.js';
import type { Growable, TypedArray } from './growable.js';
import { PositionList } from './position-list.js';

/** The live columns and key maps of the indexes, by name. */
export interface SnapshotParts {
  arrays: Record<string, Growable<TypedArray>>;
  lists: Record<string, Map<string, PositionList>>;
}

export const FILE = 'index.snapshot';
export const VERSION = 1;
export const KINDS = { Float64Array, Uint32Array, Uint8Array } as const;

export interface Header {
  version: number;
  /** Every segment and its size when the snapshot was taken: the indexes cover exactly these bytes. */
  segments: [number, number][];
  arrays: { name: string; kind: keyof typeof KINDS; length: number }[];
  lists: { name: string; keys: string[]; counts: number[] }[];
}

/**
 * Fills `parts` from the snapshot and returns where the lines it does not cover start, or null
 * (no snapshot, or it no longer matches the segments: then the caller scans them all). It is
 * trusted when every segment it covers is still there with the same size, except the last one,
 * which may have grown since (appends after the snapshot: the tail to scan).
 */
export function readSnapshot(
  eventsDir: string,
  segments: number[],
  parts: SnapshotParts,
): { segment: number; offset: number } | null {
  const path = join(eventsDir, FILE);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    // Read into place, not whole: at 1 M events the file is ~78 MB, and holding it beside the
    // columns copied out of it (and the copies `replace` made of those) set the daemon's peak memory.
    const size = fstatSync(fd).size;
    const lengthBytes = readExactly(fd, 0, 4);
    const headerEnd = 4 + lengthBytes.readUInt32LE(0);
    // A damaged length must not become a read (an allocation) of gigabytes.
    if (headerEnd > size) return discard(path, fd);
    const header = JSON.parse(readExactly(fd, 4, headerEnd - 4).toString('utf8')) as Header;
    if (
      header.version !== VERSION ||
      !coversStartOf(eventsDir, header.segments, segments) ||
      expectedSize(header, headerEnd) !== size
    )
      return discard(path, fd);
    let offset = headerEnd;
    for (const { name, kind, length } of header.arrays) {
      const column = parts.arrays[name]!;
      const bytes = length * KINDS[kind].BYTES_PER_ELEMENT;
      readInto(fd, offset, column.load(length));
      offset += bytes + ((8 - (bytes % 8)) % 8);
    }
    for (const { name, keys, counts } of header.lists) {
      const map = parts.lists[name]!;
      map.clear();
      let total = 0;
      for (const count of counts) total += count;
      const values = new Uint32Array(total);
      readInto(fd, offset, values);
      offset += total * 4;
      let at = 0;
      keys.forEach((key, i) => {
        // A view of the bytes read, no copy: a key's first append moves its list to a buffer of its own.
        map.set(key, PositionList.over(values.subarray(at, at + counts[i]!)));
        at += counts[i]!;
      });
    }
    closeSync(fd);
    const last = header.segments.at(-1);
    return last ? { segment: last[0], offset: last[1] } : { segment: segments[0] ?? 1, offset: 0 };
  } catch {
    // A damaged snapshot is only a slower start: empty whatever was filled, and scan.
    for (const column of Object.values(parts.arrays)) column.replace([]);
    for (const map of Object.values(parts.lists)) map.clear();
    return discard(path, fd);
  }
}

function readExactly(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  readInto(fd, position, buf);
  return buf;
}

function readInto(fd: number, position: number, into: ArrayBufferView): void {
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
  for (let done = 0; done < bytes.length; ) {
    const n = readSync(fd, bytes, done, bytes.length - done, position + done);
    if (n === 0) throw new Error(`${FILE}: shorter than its header says`);
    done += n;
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

function discard(path: string, fd: number): null {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
  rmSync(path, { force: true });
  return null;
}
