import { rm } from 'node:fs/promises';
import { listSegments, segmentPath, syncFolderAsync } from '../disk/segment-io.js';
import { writeSnapshotFile, type CapturedState } from './snapshot-file.js';

export interface CompactionHost {
  readonly dir: string;
  /** Every table at this instant, and the journal position it corresponds to. */
  capture(): CapturedState;
  /** True once every entry up to `seq` is on disk; false if one of them failed (and was taken back). */
  whenDurable(seq: number): Promise<boolean>;
}

/**
 * Folds the journal into a snapshot, then deletes the segments it covers. The order makes a crash
 * at any instant harmless, with no repair: until the rename, the previous snapshot and every
 * segment are untouched (a `.tmp` is removed at the next open); after it, the new snapshot holds
 * every entry up to its `seq` and a replay skips those entries wherever they still are. The
 * capture may include writes not yet on disk: the snapshot is only put in place once they are,
 * and abandoned if one of them fails (memory then no longer holds it either).
 * Returns the snapshot's size in bytes, or null when it was abandoned.
 */
export async function compact(host: CompactionHost, timing = { longestSliceMs: 0 }): Promise<number | null> {
  const started = performance.now();
  const state = host.capture();
  timing.longestSliceMs = Math.max(timing.longestSliceMs, performance.now() - started);
  const file = await writeSnapshotFile(host.dir, state, timing);
  if (!(await host.whenDurable(state.seq))) {
    await file.abort();
    return null;
  }
  const size = file.size;
  await file.commit();
  const covered = listSegments(host.dir).filter((n) => n <= state.segment);
  for (const n of covered) await rm(segmentPath(host.dir, n), { force: true });
  if (covered.length > 0) await syncFolderAsync(host.dir);
  return size;
}
