import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../clock.js';
import { GroupCommitWriter } from './group-commit.js';
import { readSnapshot, writeSnapshot, type SnapshotParts } from './index-snapshot.js';
import { LogCore } from './log-core.js';
import { listSegments, nodeSegmentIo, segmentPath, type SegmentIo } from './segment-io.js';
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
  /** Save the indexes at close and load them at the next start (default true). */
  snapshot?: boolean;
}

const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
// Offsets are kept as 32-bit numbers.
const MAX_SEGMENT_BYTES = 2 ** 31;

/**
 * Opens (or creates) the event log under `<dir>/events/`: loads the indexes from the snapshot of
 * the last clean close when the segments are unchanged since, else reads every segment once to
 * rebuild them (cutting a torn tail, skipping corrupt lines — see `recovery`); then appends with
 * group commit. `close` waits for queued appends, releases the files and saves the snapshot.
 */
export async function openEventLog(dir: string, options: FileLogOptions): Promise<EventLog> {
  const eventsDir = join(dir, 'events');
  mkdirSync(eventsDir, { recursive: true, mode: 0o700 });
  const segmentBytes = Math.min(MAX_SEGMENT_BYTES, options.segmentBytes ?? DEFAULT_SEGMENT_BYTES);
  const store = new SegmentStore(eventsDir, options.cacheLines);
  const recovery: string[] = [];
  const core = new LogCore(options.clock, store, recovery);

  const segments = listSegments(eventsDir);
  const parts = snapshotParts(core, store);
  const useSnapshot = options.snapshot !== false;
  let tailSize = segments.length > 0 ? statSync(segmentPath(eventsDir, segments.at(-1)!)).size : 0;
  if (!useSnapshot || !readSnapshot(eventsDir, segments, parts)) {
    const scanned = scanSegments(eventsDir, segments, (e) => {
      store.add(e.segment, e.offset, e.length);
      core.index.add(e.fields);
    });
    recovery.push(...scanned.recovery);
    tailSize = scanned.tailSize;
  }
  core.continueAfter(core.index.lastSeq());

  const writer = new GroupCommitWriter(eventsDir, options.io ?? nodeSegmentIo, segmentBytes, segments.at(-1) ?? 1, tailSize, (batch) => {
    for (const w of batch) {
      store.add(w.segment, w.offset, w.length, w.event.line);
      core.commit(w.event);
    }
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
      writer.close();
      store.close();
      if (useSnapshot && writer.healthy) {
        try {
          writeSnapshot(eventsDir, listSegments(eventsDir), parts);
        } catch {
          // Without a snapshot the next start scans the segments: slower, never wrong.
        }
      }
    },
  };
}

function snapshotParts(core: LogCore, store: SegmentStore): SnapshotParts {
  const index = core.index.snapshotParts();
  const files = store.snapshotParts();
  return { arrays: { ...index.arrays, ...Object.fromEntries(Object.entries(files.arrays).map(([k, v]) => ['store.' + k, v])) }, lists: index.lists };
}
