import { readFileSync, truncateSync } from 'node:fs';
import { parseEventId } from './event-id.js';
import { fieldsOf, type IndexFields } from './index-fields.js';
import { decodeEventLine } from './line-format.js';
import { LineScanner } from './line-scan.js';
import { segmentName, segmentPath } from './segment-io.js';

export interface ScannedEvent {
  /** Reused from one call of `visit` to the next: copy what you keep. */
  fields: IndexFields;
  segment: number;
  offset: number;
  length: number;
}

/**
 * Reads every segment once at start and hands each good event to `visit`, oldest first. Lines
 * the log wrote itself take the byte-level fast path (line-scan.ts); any other goes through JSON.parse.
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
  const fields: IndexFields = { seq: 0, createdMs: 0, type: '', agent_id: null, session_id: null, quest_id: null, causation_id: null, correlation_id: '', causationSeq: -1, correlationSeq: -1 };
  const scanner = new LineScanner();
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
        const ok = scanner.scan(data, offset, end, fields) || decodeInto(data.toString('utf8', offset, end), fields);
        if (!ok) recovery.push(`${segmentName(segment)} line ${lineNo} (byte ${offset}): skipped a corrupt line`);
        else if (fields.seq <= lastSeq) recovery.push(`${segmentName(segment)} line ${lineNo} (byte ${offset}): skipped an event whose id is not above the previous one`);
        else {
          lastSeq = fields.seq;
          visit({ fields, segment, offset, length: end - offset });
        }
      }
      offset = end + 1;
    }
    if (isTail) tailSize = Math.min(offset, data.length);
  });
  return { recovery, tailSize };
}

function decodeInto(line: string, fields: IndexFields): boolean {
  const row = decodeEventLine(line);
  if (row === null) return false;
  Object.assign(fields, fieldsOf(row, parseEventId(row.id)!));
  return true;
}
