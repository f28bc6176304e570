import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { segmentPath, syncFolder } from '../disk/segment-io.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { parseEventId } from './event-id.js';
import { decodeEventLine, encodeEventLine } from './line-format.js';

export interface SegmentImporter {
  /** Writes one event as it was (id and times kept); ids must be strictly increasing. */
  add(row: EventRow): void;
  /** Syncs the segments and the folder. */
  close(): void;
}

const SEGMENT_BYTES = 64 * 1024 * 1024;
const FLUSH_BYTES = 1 << 20;

/**
 * Writes existing events (`svc admin import`) into a new, empty log under `<dir>/events/` in the
 * log's own line format, ids kept: the log opened over it afterwards rebuilds its indexes from
 * the segments and continues above the last id. Only for a folder nothing else has open.
 */
export function createSegmentImporter(dir: string): SegmentImporter {
  const eventsDir = join(dir, 'events');
  mkdirSync(eventsDir, { recursive: true, mode: 0o700 });
  let segment = 1;
  let fd = openSync(segmentPath(eventsDir, segment), 'wx', 0o600);
  let size = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  let lastSeq = 0;
  const flush = () => {
    if (pendingBytes > 0) writeSync(fd, pending.join(''));
    size += pendingBytes;
    pending = [];
    pendingBytes = 0;
  };
  return {
    add(row) {
      const seq = parseEventId(row.id);
      if (seq === null || seq <= lastSeq) throw new Error(`event id ${row.id} is malformed or out of order`);
      const line = `${encodeEventLine(row)}\n`;
      // The line the log would read back must be the event given: refuse what it would skip as corrupt.
      if (decodeEventLine(line.slice(0, -1)) === null) throw new Error(`event ${row.id} is not a valid event row`);
      lastSeq = seq;
      const bytes = Buffer.byteLength(line);
      if (size + pendingBytes + bytes > SEGMENT_BYTES && size + pendingBytes > 0) {
        flush();
        fsyncSync(fd);
        closeSync(fd);
        fd = openSync(segmentPath(eventsDir, ++segment), 'wx', 0o600);
        size = 0;
      }
      pending.push(line);
      pendingBytes += bytes;
      if (pendingBytes >= FLUSH_BYTES) flush();
    },
    close() {
      flush();
      fsyncSync(fd);
      closeSync(fd);
      syncFolder(eventsDir);
    },
  };
}
