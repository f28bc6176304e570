import { closeSync, fstatSync, openSync, readSync, truncateSync } from 'node:fs';
import { segmentName, segmentPath } from './segment-io.js';

export interface LineVisit {
  /** The segment file from byte `base` on, and where this line sits in `data` (newline excluded). */
  data: Buffer;
  base: number;
  start: number;
  end: number;
  /** 1-based line number in its segment, for recovery notes. */
  lineNo: number;
  segment: number;
}

/**
 * Reads segments oldest first from `from` (a segment and a byte offset in it) and hands each
 * complete line to `visit`. The last segment's unfinished last line is a write a crash
 * interrupted — never acknowledged, since a write resolves only after its whole line is synced —
 * so it is cut off (the next write then starts clean) and reported, never a reason to refuse start.
 * Returns the notes and the size of the last segment after the cut.
 */
export function readSegmentLines(
  dir: string,
  segments: number[],
  visit: (line: LineVisit) => void,
  from: { segment: number; offset: number } = { segment: -1, offset: 0 },
): { recovery: string[]; tailSize: number } {
  const recovery: string[] = [];
  let tailSize = 0;
  segments.forEach((segment, i) => {
    if (segment < from.segment) return;
    const path = segmentPath(dir, segment);
    const base = segment === from.segment ? from.offset : 0;
    const data = readFrom(path, base);
    const isTail = i === segments.length - 1;
    let offset = 0;
    let lineNo = 0;
    while (offset < data.length) {
      let end = data.indexOf(10, offset);
      lineNo++;
      if (end < 0) {
        if (isTail) {
          truncateSync(path, base + offset);
          recovery.push(
            `${segmentName(segment)}: cut an unfinished last line at byte ${base + offset} (${data.length - offset} bytes from a write a crash interrupted)`,
          );
          break;
        }
        end = data.length;
      }
      if (end > offset) visit({ data, base, start: offset, end, lineNo, segment });
      offset = end + 1;
    }
    if (isTail) tailSize = base + Math.min(offset, data.length);
  });
  return { recovery, tailSize };
}

/** The file from `position` to its end. */
function readFrom(path: string, position: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const data = Buffer.allocUnsafe(Math.max(0, size - position));
    let done = 0;
    while (done < data.length) {
      const n = readSync(fd, data, done, data.length - done, position + done);
      if (n === 0) break;
      done += n;
    }
    return data.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}
