import { readFileSync, truncateSync } from 'node:fs';
import type { EventRow } from '../../runtime/services.js';
import { parseEventId } from './event-id.js';
import { decodeEventLine } from './line-format.js';
import { segmentName, segmentPath } from './segment-io.js';

export interface ScannedEvent {
  row: EventRow;
  seq: number;
  segment: number;
  offset: number;
  length: number;
}

/**
 * Reads every segment once at start and hands each good event to `visit`, oldest first.
 * Recovery, reported line by line and never fatal:
 * - the last segment's unfinished last line (a crash mid-write; never acknowledged, since an
 *   append resolves only after its whole line is synced) is cut off, so the next write starts clean;
 * - a complete line that is not an event (bit rot, a hand edit) is skipped;
 * - a line whose id is not above the previous one is skipped, so positions stay in id order.
 */
export function scanSegments(eventsDir: string, segments: number[], visit: (event: ScannedEvent) => void): { recovery: string[]; tailSize: number } {
  const recovery: string[] = [];
  let lastSeq = 0;
  let tailSize = 0;
  segments.forEach((segment, i) => {
    const path = segmentPath(eventsDir, segment);
    const data = readFileSync(path);
    const isTail = i === segments.length - 1;
    let offset = 0;
    let lineNo = 0;
    while (offset < data.length) {
      let end = data.indexOf(10, offset);
      lineNo++;
      if (end < 0) {
        if (isTail) {
          truncateSync(path, offset);
          recovery.push(`${segmentName(segment)}: cut an unfinished last line at byte ${offset} (${data.length - offset} bytes from a write a crash interrupted)`);
          break;
        }
        end = data.length;
      }
      if (end > offset) {
        const row = decodeEventLine(data.toString('utf8', offset, end));
        const seq = row ? parseEventId(row.id)! : null;
        if (row === null || seq === null) recovery.push(`${segmentName(segment)} line ${lineNo} (byte ${offset}): skipped a corrupt line`);
        else if (seq <= lastSeq) recovery.push(`${segmentName(segment)} line ${lineNo} (byte ${offset}): skipped ${row.id}, not above the previous id`);
        else {
          lastSeq = seq;
          visit({ row, seq, segment, offset, length: end - offset });
        }
      }
      offset = end + 1;
    }
    if (isTail) tailSize = Math.min(offset, data.length);
  });
  return { recovery, tailSize };
}
