import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { segmentPath } from '../../disk/segment-io.js';
import type { Growable, TypedArray } from './growable.js';

/** The live columns and key maps of the indexes, by name. */
export interface SnapshotParts {
  arrays: Record<string, Growable<TypedArray>>;
  lists: Record<string, Map<string, number[]>>;
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
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return null;
  }
  try {
    const headerEnd = 4 + data.readUInt32LE(0);
    const header = JSON.parse(data.toString('utf8', 4, headerEnd)) as Header;
    if (
      header.version !== VERSION ||
      !coversStartOf(eventsDir, header.segments, segments) ||
      expectedSize(header, headerEnd) !== data.length
    )
      return discard(path);
    let offset = headerEnd;
    for (const { name, kind, length } of header.arrays) {
      const Kind = KINDS[kind];
      const bytes = length * Kind.BYTES_PER_ELEMENT;
      // Copied out of the file buffer (alignment, and so the buffer can be freed).
      parts.arrays[name]!.replace(
        new Kind((data.buffer as ArrayBuffer).slice(data.byteOffset + offset, data.byteOffset + offset + bytes)),
      );
      offset += bytes + ((8 - (bytes % 8)) % 8);
    }
    for (const { name, keys, counts } of header.lists) {
      const map = parts.lists[name]!;
      map.clear();
      keys.forEach((key, i) => {
        const bytes = counts[i]! * 4;
        map.set(
          key,
          Array.from(
            new Uint32Array(
              (data.buffer as ArrayBuffer).slice(data.byteOffset + offset, data.byteOffset + offset + bytes),
            ),
          ),
        );
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
