import { readSegmentLines } from '../disk/line-reader.js';
import { segmentName } from '../disk/segment-io.js';
import { parseEventId } from './event-id.js';
import { fieldsOf, type IndexFields } from './index-fields.js';
import { decodeEventLine } from './line-format.js';
import { LineScanner } from './line-scan.js';

export interface ScannedEvent {
  /** Reused from one call of `visit` to the next: copy what you keep. */
  fields: IndexFields;
  segment: number;
  offset: number;
  length: number;
}

/** Where a scan starts: after a snapshot, only the lines it does not cover. */
export interface ScanStart {
  segment: number;
  offset: number;
  /** The highest id already indexed. */
  lastSeq: number;
}

/**
 * Reads the segments once at start (all of them, or the tail after `from`) and hands each good
 * event to `visit`, oldest first. Lines the log wrote itself take the byte-level fast path
 * (line-scan.ts); any other goes through JSON.parse. Recovery, reported line by line and never fatal:
 * - the last segment's unfinished last line is cut off (disk/line-reader.ts);
 * - a complete line that is not an event (bit rot, a hand edit) is skipped;
 * - a line whose id is not above the previous one is skipped, so positions stay in id order.
 */
export function scanSegments(
  eventsDir: string,
  segments: number[],
  visit: (event: ScannedEvent) => void,
  from?: ScanStart,
): { recovery: string[]; tailSize: number; lines: number } {
  const problems: string[] = [];
  let lines = 0;
  let lastSeq = from?.lastSeq ?? 0;
  const fields: IndexFields = {
    seq: 0,
    createdMs: 0,
    type: '',
    agent_id: null,
    session_id: null,
    quest_id: null,
    causation_id: null,
    correlation_id: '',
    causationSeq: -1,
    correlationSeq: -1,
  };
  const scanner = new LineScanner();
  const { recovery, tailSize } = readSegmentLines(
    eventsDir,
    segments,
    ({ data, base, start, end, lineNo, segment }) => {
      lines++;
      const where = `${segmentName(segment)} line ${lineNo} (byte ${base + start})`;
      const ok = scanner.scan(data, start, end, fields) || decodeInto(data.toString('utf8', start, end), fields);
      if (!ok) problems.push(`${where}: skipped a corrupt line`);
      else if (fields.seq <= lastSeq)
        problems.push(`${where}: skipped an event whose id is not above the previous one`);
      else {
        lastSeq = fields.seq;
        visit({ fields, segment, offset: base + start, length: end - start });
      }
    },
    from,
  );
  // `lines`: every line read (good or not), so the caller knows whether a snapshot covered them all.
  return { recovery: [...problems, ...recovery], tailSize, lines: lines + recovery.length };
}

function decodeInto(line: string, fields: IndexFields): boolean {
  const row = decodeEventLine(line);
  if (row === null) return false;
  Object.assign(fields, fieldsOf(row, parseEventId(row.id)!));
  return true;
}
