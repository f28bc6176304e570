import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../clock.js';
import { removeTempFiles } from '../disk/atomic-file.js';
import { GroupCommitWriter } from '../disk/group-commit.js';
import { readSnapshot, type SnapshotParts } from './index-snapshot.js';
import { LogCore, type PreparedEvent } from './log-core.js';
import { listSegments, nodeSegmentIo, type SegmentIo } from '../disk/segment-io.js';
import { PeriodicSnapshots } from './periodic-snapshots.js';
import { scanSegments } from './segment-scan.js';
import { SegmentStore } from './segment-store.js';
import type { EventLog, EventLogStats } from './types.js';

export interface FileLogOptions {
  clock: Clock;
  /** A segment is closed and the next one started once a batch would take it past this size. */
  segmentBytes?: number;
  /** Recent lines kept in memory for reads. */
  cacheLines?: number;
  io?: SegmentIo;
  /** Save the indexes (periodically and at close) and load them at the next start (default true). */
  snapshot?: boolean;
  /**
   * Save the indexes after this many events since the last save (default 50,000, and at least a
   * sixteenth of the log), so a start after a crash scans only the lines since.
   */
  snapshotEvery?: number;
}

const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
const DEFAULT_SNAPSHOT_EVERY = 50_000;
// Offsets are kept as 32-bit numbers.
const MAX_SEGMENT_BYTES = 2 ** 31;

/**
 * Opens (or creates) the event log under `<dir>/events/`: loads the indexes from the latest
 * snapshot (saved every `snapshotEvery` events and at a clean close) and reads only the lines
 * appended since, or, without a usable snapshot, reads every segment once to rebuild them (cutting
 * a torn tail, skipping corrupt lines — see `recovery`); then appends with group commit. `close`
 * waits for queued appends, releases the files and saves the snapshot.
 */
export async function openEventLog(dir: string, options: FileLogOptions): Promise<EventLog> {
  const eventsDir = join(dir, 'events');
  mkdirSync(eventsDir, { recursive: true, mode: 0o700 });
  // A snapshot a crash interrupted: the complete one (or the segments) still hold everything.
  removeTempFiles(eventsDir);
  const segmentBytes = Math.min(MAX_SEGMENT_BYTES, options.segmentBytes ?? DEFAULT_SEGMENT_BYTES);
  const store = new SegmentStore(eventsDir, options.cacheLines);
  const recovery: string[] = [];
  const core = new LogCore(options.clock, store, recovery);

  const segments = listSegments(eventsDir);
  const parts = snapshotParts(core, store);
  const useSnapshot = options.snapshot !== false;
  // After a snapshot only the lines it does not cover are read (a crash costs the tail, not the log).
  const start = useSnapshot ? readSnapshot(eventsDir, segments, parts) : null;
  const scanned = scanSegments(
    eventsDir,
    segments,
    (e) => {
      store.add(e.segment, e.offset, e.length);
      core.index.add(e.fields);
    },
    start ? { ...start, lastSeq: core.index.lastSeq() ?? 0 } : undefined,
  );
  recovery.push(...scanned.recovery);
  core.continueAfter(core.index.lastSeq());
  // Lines the snapshot does not cover (appended after it, or no snapshot): the close saves the indexes.
  const uncovered = start ? scanned.lines > 0 : core.index.count > 0;

  const snapshots = new PeriodicSnapshots(
    eventsDir,
    parts,
    useSnapshot,
    options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY,
    uncovered,
  );
  const writer: GroupCommitWriter<PreparedEvent> = new GroupCommitWriter({
    dir: eventsDir,
    io: options.io ?? nodeSegmentIo,
    segmentBytes,
    segment: segments.at(-1) ?? 1,
    size: scanned.tailSize,
    onDurable: (batch) => {
      for (const w of batch) {
        store.add(w.segment, w.offset, w.length, w.item.line);
        core.commit(w.item);
      }
      // Right here the indexes hold exactly the durable lines: the one instant a snapshot is consistent.
      snapshots.count(batch.length, core.index.count, writer.position);
    },
  });
  let closed = false;

  return {
    async append(input) {
      if (closed) throw new Error('the event log is closed');
      const event = core.prepare(input);
      await writer.append(event);
      return event.row;
    },
    get: async (id) => core.get(id),
    query: async (query) => core.query(query),
    lastId: async () => core.lastId(),
    recovery,
    stats: (): EventLogStats => ({
      events: core.index.count,
      batches: writer.stats.batches,
      syncs: writer.stats.syncs,
      index_bytes: core.index.bytes() + store.bytes(),
    }),
    async close() {
      if (closed) return;
      closed = true;
      await writer.settle();
      await snapshots.settle();
      writer.close();
      store.close();
      if (useSnapshot && writer.healthy) snapshots.writeNow(writer.position);
    },
  };
}

function snapshotParts(core: LogCore, store: SegmentStore): SnapshotParts {
  const index = core.index.snapshotParts();
  const files = store.snapshotParts();
  return {
    arrays: { ...index.arrays, ...Object.fromEntries(Object.entries(files.arrays).map(([k, v]) => ['store.' + k, v])) },
    lists: index.lists,
  };
}
