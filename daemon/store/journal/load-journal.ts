import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { removeTempFiles } from '../disk/atomic-file.js';
import { readSegmentLines } from '../disk/line-reader.js';
import { listSegments, segmentName, segmentPath, syncFolder } from '../disk/segment-io.js';
import { applyStored, decodeEntry, type Rows } from './entry-format.js';
import { SNAPSHOT_FILE } from './snapshot-file.js';
import { readSnapshotFile } from './snapshot-read.js';
import type { SnapshotSource } from './snapshot-source.js';

export interface LoadedJournal {
  rows: Rows;
  /** The key-function fingerprint of each table whose snapshot lines carry their keys. */
  fingerprints: Map<string, string>;
  /** Where records loaded unread are read from (kept open until the space closes). */
  source: SnapshotSource | null;
  /** The highest entry number found: the next write is numbered above it. */
  lastSeq: number;
  /** Where the writer goes on: the last segment and its size after recovery. */
  segment: number;
  tailSize: number;
  /** Journal bytes and entries after the snapshot (what a crash start replays). */
  bytesSinceSnapshot: number;
  entriesSinceSnapshot: number;
  snapshotBytes: number;
  recovery: string[];
}

/**
 * Recovery, the same after a clean stop and after a crash: the latest complete snapshot, then
 * every later journal entry replayed in order. Nothing found is a reason to refuse to start:
 * - a `.tmp` (a snapshot a crash interrupted) is removed: the previous snapshot and the segments
 *   still hold everything it would have;
 * - segments a complete snapshot covers (a crash between its rename and their deletion) are
 *   deleted now, and any entry it covers is skipped, wherever it is;
 * - the last segment's torn last line is cut; a corrupt line elsewhere is skipped and reported.
 */
export function loadJournal(dir: string): LoadedJournal {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const recovery = removeTempFiles(dir).map(
    (name) => `${name}: removed the leftover of a snapshot a crash interrupted`,
  );
  const snapshot = readSnapshotFile(dir);
  recovery.push(...(snapshot?.problems ?? []));
  let segments = listSegments(dir);
  if (snapshot?.intact) {
    const covered = segments.filter((n) => n <= snapshot.segment);
    for (const n of covered) rmSync(segmentPath(dir, n), { force: true });
    if (covered.length > 0) syncFolder(dir);
    segments = segments.filter((n) => n > snapshot.segment);
  }
  const rows: Rows = snapshot?.rows ?? new Map();
  const snapshotSeq = snapshot?.seq ?? 0;
  let lastSeq = snapshotSeq;
  let bytesSinceSnapshot = 0;
  let entriesSinceSnapshot = 0;
  const { recovery: cut, tailSize } = readSegmentLines(dir, segments, ({ data, base, start, end, lineNo, segment }) => {
    const where = `${segmentName(segment)} line ${lineNo} (byte ${base + start})`;
    const entry = decodeEntry(data.toString('utf8', start, end));
    if (entry === null) return void recovery.push(`${where}: skipped a corrupt entry`);
    if (entry.seq <= snapshotSeq) return; // already in the snapshot
    if (entry.seq <= lastSeq)
      return void recovery.push(`${where}: skipped an entry whose number is not above the previous one`);
    lastSeq = entry.seq;
    applyStored(rows, entry.changes);
    bytesSinceSnapshot += end - start + 1;
    entriesSinceSnapshot++;
  });
  recovery.push(...cut);
  let snapshotBytes = 0;
  if (snapshot) snapshotBytes = statSync(join(dir, SNAPSHOT_FILE)).size;
  return {
    rows,
    fingerprints: snapshot?.fingerprints ?? new Map(),
    source: snapshot?.source ?? null,
    lastSeq,
    segment: segments.at(-1) ?? (snapshot?.segment ?? 0) + 1,
    tailSize: segments.length > 0 ? tailSize : 0,
    bytesSinceSnapshot,
    entriesSinceSnapshot,
    snapshotBytes,
    recovery,
  };
}
