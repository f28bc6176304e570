import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEntry, AuditStore, AuditVerification } from '../audit-types.js';
import { GroupCommitWriter, type LineItem } from '../disk/group-commit.js';
import { readSegmentLines } from '../disk/line-reader.js';
import {
  listSegments,
  nodeSegmentIo,
  segmentName,
  segmentPath,
  syncFolder,
  type SegmentIo,
} from '../disk/segment-io.js';
import { AuditLog, type AuditPersistence } from './audit-log.js';
import { parseEntry, verifyEntries } from './chain.js';

/** The folder of the data folder that holds the audit trail. */
export const AUDIT_FOLDER = 'audit';

export interface FileAuditOptions {
  /** A segment is closed past this size; retention removes whole segments, so they are kept small. */
  segmentBytes?: number;
  io?: SegmentIo;
}

interface Item extends LineItem {
  entry: AuditEntry;
}

/**
 * The audit trail on the data folder: `<data>/audit/000001.jsonl`, … one entry per line, appended
 * through the event log's group commit (one write and one fdatasync per batch, an append resolved
 * only once its batch is synced). At open the lines are read back; a torn last line (a write a
 * crash interrupted, never acknowledged) is cut off, and a line that is not an entry is skipped
 * and reported — and `verify`, which re-reads the files, names it.
 */
export async function openFileAuditStore(
  dataDir: string,
  options: FileAuditOptions = {},
): Promise<AuditStore & { recovery: string[] }> {
  const dir = join(dataDir, AUDIT_FOLDER);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const segments = listSegments(dir);
  const loaded: AuditEntry[] = [];
  // Per segment, its newest time and its last entry's id: what retention needs to pick whole
  // files, kept per file rather than per entry.
  const newest = new Map<number, string>();
  const lastId = new Map<number, string>();
  const notes: string[] = [];
  const { recovery, tailSize } = readSegmentLines(dir, segments, (v) => {
    const entry = parseEntry(v.data.toString('utf8', v.start, v.end));
    if (!entry)
      return void notes.push(`${segmentName(v.segment)} line ${v.lineNo}: skipped a line that is not an audit entry`);
    loaded.push(entry);
    note(entry, v.segment);
  });
  function note(entry: AuditEntry, segment: number) {
    lastId.set(segment, entry.id);
    if ((newest.get(segment) ?? '') < entry.at) newest.set(segment, entry.at);
  }

  let log: AuditLog;
  const writer = new GroupCommitWriter<Item>({
    dir,
    io: options.io ?? nodeSegmentIo,
    segmentBytes: options.segmentBytes ?? 4 * 1024 * 1024,
    segment: segments.at(-1) ?? 1,
    size: segments.length ? tailSize : 0,
    failQueued: true,
    onDurable: (batch) => {
      for (const w of batch) {
        note(w.item.entry, w.segment);
        log.markDurable(w.item.entry);
      }
    },
    onFailed: () => log.forgetPending(),
  });

  const persistence: AuditPersistence = {
    write: (entry, line) => writer.append({ line, entry }),
    flush: () => writer.settle(),
    async close() {
      await writer.settle();
      writer.close();
    },
    verify: async () => verifyAuditFolder(dataDir),
    removable(beforeIso) {
      const current = writer.position.segment;
      const doomed: number[] = [];
      for (const s of listSegments(dir)) {
        if (s >= current || (newest.get(s) ?? '') >= beforeIso) break;
        doomed.push(s);
      }
      // Ids grow with the files (appends are written in order), so a doomed file's entries are those
      // up to the last id of the newest doomed file.
      const through = doomed.reduce((max, s) => ((lastId.get(s) ?? '') > max ? lastId.get(s)! : max), '');
      return { ids: log.entries.filter((e) => e.id <= through).map((e) => e.id), segments: doomed };
    },
    async remove(doomed) {
      for (const s of doomed) unlinkSync(segmentPath(dir, s));
      if (doomed.length) syncFolder(dir);
    },
  };
  log = new AuditLog(persistence, loaded);
  return Object.assign(log, { recovery: [...recovery, ...notes] });
}

/**
 * Re-walks the chain from the files alone, read-only: it can run beside a daemon that is writing
 * (an unfinished last line is a write in flight, not a break) or on a stopped one's folder.
 */
export function verifyAuditFolder(dataDir: string): AuditVerification {
  const dir = join(dataDir, AUDIT_FOLDER);
  const segments = existsSync(dir) ? listSegments(dir) : [];
  const stored: { entry: AuditEntry | null; where: string }[] = [];
  segments.forEach((segment, i) => {
    const text = readWhole(segmentPath(dir, segment));
    const lines = text.split('\n');
    // The last segment's text after its last newline is a write still in flight (or one a crash cut).
    if (i === segments.length - 1 || lines.at(-1) === '') lines.pop();
    lines.forEach((line, n) => {
      if (line === '') return;
      stored.push({ entry: parseEntry(line), where: `${AUDIT_FOLDER}/${segmentName(segment)} line ${n + 1}` });
    });
  });
  return verifyEntries(stored);
}

function readWhole(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const data = Buffer.alloc(fstatSync(fd).size);
    let done = 0;
    while (done < data.length) {
      const n = readSync(fd, data, done, data.length - done, done);
      if (n === 0) break;
      done += n;
    }
    return data.toString('utf8', 0, done);
  } finally {
    closeSync(fd);
  }
}
