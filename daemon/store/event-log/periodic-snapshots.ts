import { statSync } from 'node:fs';
import { listSegments, segmentPath } from '../disk/segment-io.js';
import type { SnapshotParts } from './index-snapshot.js';
import { captureSnapshot, writeSnapshot, writeSnapshotInPieces } from './snapshot-write.js';

/**
 * When the log saves its indexes: every `every` events (and at least a sixteenth of the log, so the
 * bytes rewritten stay proportional to the bytes appended), and at a clean close when the saved
 * snapshot does not cover every line (a close after a run that appended nothing does not rewrite
 * the ~78 MB of a log of 1 M events). A periodic save is captured at once and written in pieces
 * across event-loop turns; one at a time.
 */
export class PeriodicSnapshots {
  private since = 0;
  /** Lines the last saved snapshot does not cover (counted from the last capture). */
  private uncovered: boolean;
  private running: Promise<void> | null = null;

  constructor(
    private readonly eventsDir: string,
    private readonly parts: SnapshotParts,
    private readonly enabled: boolean,
    private readonly every: number,
    uncoveredAtOpen: boolean,
  ) {
    this.uncovered = uncoveredAtOpen;
  }

  /** Called once a batch is durable and indexed; `position` is the writer's durable end. */
  count(events: number, total: number, position: { segment: number; size: number }): void {
    this.since += events;
    if (events > 0) this.uncovered = true;
    if (!this.enabled || this.running || this.since < Math.max(this.every, total / 16)) return;
    this.since = 0;
    this.uncovered = false;
    const snap = captureSnapshot(this.covered(position), this.parts);
    // A failed save only means a longer scan at the next start; the next period tries again.
    this.running = writeSnapshotInPieces(this.eventsDir, snap)
      .catch(() => void (this.uncovered = true))
      .finally(() => (this.running = null));
  }

  async settle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The save at a clean close (nothing is appended meanwhile, so it is written in one go). */
  writeNow(position: { segment: number; size: number }): void {
    if (!this.uncovered) return;
    try {
      writeSnapshot(this.eventsDir, captureSnapshot(this.covered(position), this.parts));
    } catch {
      // Without a snapshot the next start scans the segments: slower, never wrong.
    }
  }

  /** Closed segments at their (final) size, and the one being appended to at its durable size. */
  private covered(position: { segment: number; size: number }): [number, number][] {
    return listSegments(this.eventsDir)
      .filter((n) => n <= position.segment)
      .map((n) => [n, n === position.segment ? position.size : statSync(segmentPath(this.eventsDir, n)).size]);
  }
}
