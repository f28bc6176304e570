import { closeSync, constants, openSync } from 'node:fs';
import type { PreparedEvent } from './log-core.js';
import { segmentPath, syncFolder, type SegmentIo } from './segment-io.js';

export interface WrittenEvent {
  event: PreparedEvent;
  segment: number;
  offset: number;
  length: number;
}

interface Waiting {
  event: PreparedEvent;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Group commit: at most one write+sync is in flight; every append that arrives meanwhile waits
 * in `queue` and goes out with the next batch — one write and one sync for all of them. A batch
 * is handed to `onDurable` (which makes it visible) and its appends resolve only after its sync
 * returned, in id order, so an acknowledged event survives a crash and a reader never sees one
 * that could still be lost.
 */
export class GroupCommitWriter {
  private queue: Waiting[] = [];
  private flushing: Promise<void> | null = null;
  private fd: number;
  private broken: Error | null = null;
  readonly stats = { batches: 0, syncs: 0, appends: 0 };

  constructor(
    private readonly eventsDir: string,
    private readonly io: SegmentIo,
    private readonly segmentBytes: number,
    private segment: number,
    private size: number,
    private readonly onDurable: (batch: WrittenEvent[]) => void,
  ) {
    this.fd = openSegment(eventsDir, segment);
  }

  append(event: PreparedEvent): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.flushing ??= this.drain();
    });
  }

  /** False once a failed write could not be taken back. */
  get healthy(): boolean {
    return this.broken === null;
  }

  /** Resolves once everything queued so far is written (or failed). */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  close(): void {
    closeSync(this.fd);
  }

  private async drain(): Promise<void> {
    try {
      // Before each batch, let pending callbacks run (the appends of this tick, and the callers
      // the last batch just acknowledged, who often append again at once), so they join it.
      await nextTurn();
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.writeBatch(batch);
        await nextTurn();
      }
    } finally {
      this.flushing = null;
    }
  }

  private async writeBatch(batch: Waiting[]): Promise<void> {
    if (this.broken) return batch.forEach((w) => w.reject(this.broken!));
    const lines = batch.map((w) => Buffer.from(w.event.line + '\n', 'utf8'));
    const data = Buffer.concat(lines);
    if (this.size > 0 && this.size + data.length > this.segmentBytes) this.roll();
    const start = this.size;
    try {
      await this.io.write(this.fd, data, start);
      await this.io.sync(this.fd);
    } catch (cause) {
      return this.fail(batch, start, cause as Error);
    }
    this.size += data.length;
    this.stats.batches++;
    this.stats.syncs++;
    this.stats.appends += batch.length;
    let offset = start;
    const written = batch.map((w, i) => {
      const length = lines[i]!.length - 1;
      const item = { event: w.event, segment: this.segment, offset, length };
      offset += length + 1;
      return item;
    });
    this.onDurable(written);
    for (const w of batch) w.resolve();
  }

  /** A failed batch is taken back (the file cut to where it started) so later lines stay whole; if even that fails, the log refuses further appends. */
  private async fail(batch: Waiting[], start: number, cause: Error): Promise<void> {
    const err = new Error(`the event log could not write to disk: ${cause.message}`);
    try {
      await this.io.truncate(this.fd, start);
    } catch {
      this.broken = err;
    }
    for (const w of batch) w.reject(err);
  }

  private roll(): void {
    closeSync(this.fd);
    this.segment++;
    this.size = 0;
    this.fd = openSegment(this.eventsDir, this.segment);
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function openSegment(eventsDir: string, segment: number): number {
  // 0600 like every other file of the data folder: event content is the Company's data.
  const fd = openSync(segmentPath(eventsDir, segment), constants.O_WRONLY | constants.O_CREAT, 0o600);
  syncFolder(eventsDir);
  return fd;
}
