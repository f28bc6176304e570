import { closeSync, constants, openSync } from 'node:fs';
import { segmentPath, syncFolder, syncFolderAsync, type SegmentIo } from './segment-io.js';

/** What a writer appends: one line (without its newline). */
export interface LineItem {
  line: string;
}

export interface Written<T> {
  item: T;
  segment: number;
  offset: number;
  length: number;
}

export interface GroupCommitOptions<T extends LineItem> {
  dir: string;
  io: SegmentIo;
  /** A segment is closed and the next one started once a batch would take it past this size. */
  segmentBytes: number;
  /** The segment to append to, and its current size. */
  segment: number;
  size: number;
  /** A batch is on disk: called before its appends resolve, in append order. */
  onDurable(batch: Written<T>[]): void;
  /**
   * Items that will never be written (their batch failed), oldest first, called before their
   * appends reject. With `failQueued`, everything queued behind a failed batch is in it too.
   */
  onFailed?(items: T[]): void;
  /** A failed batch also fails what is queued behind it: needed when later items may depend on it. */
  failQueued?: boolean;
}

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(err: Error): void;
}

/**
 * Group commit, shared by the event log and the record journal: at most one write+sync is in
 * flight; every append that arrives meanwhile waits in `queue` and goes out with the next batch —
 * one write and one sync for all of them. An append resolves only after its batch's sync returned,
 * so an acknowledged line survives a crash, and `onDurable` (which makes it visible) never sees a
 * line that could still be lost.
 */
export class GroupCommitWriter<T extends LineItem> {
  private queue: Waiting<T>[] = [];
  private flushing: Promise<void> | null = null;
  private fd: number;
  private broken: Error | null = null;
  private rollRequested = false;
  private segmentNo: number;
  private size: number;
  readonly stats = { batches: 0, syncs: 0, appends: 0, bytes: 0 };

  constructor(private readonly o: GroupCommitOptions<T>) {
    this.segmentNo = o.segment;
    this.size = o.size;
    this.fd = openSegment(o.dir, o.segment);
  }

  append(item: T): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.flushing ??= this.drain();
    });
  }

  /** False once a failed write could not be taken back. */
  get healthy(): boolean {
    return this.broken === null;
  }

  /** The segment being appended to and its durable size (what every acknowledged line fills). */
  get position(): { segment: number; size: number } {
    return { segment: this.segmentNo, size: this.size };
  }

  /** The next batch starts a new segment (unless the current one is empty): compaction can then delete whole files. */
  requestRoll(): number {
    if (this.size > 0) this.rollRequested = true;
    return this.rollRequested ? this.segmentNo : this.segmentNo - 1;
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

  private async writeBatch(batch: Waiting<T>[]): Promise<void> {
    if (this.broken) return this.reject(batch, this.broken);
    const lines = batch.map((w) => Buffer.from(w.item.line + '\n', 'utf8'));
    const data = Buffer.concat(lines);
    let start = this.size;
    try {
      if (this.size > 0 && (this.rollRequested || this.size + data.length > this.o.segmentBytes)) {
        await this.roll();
        start = 0;
      }
      await this.o.io.write(this.fd, data, start);
      await this.o.io.sync(this.fd);
    } catch (cause) {
      return this.fail(batch, start, cause as Error);
    }
    this.size += data.length;
    this.stats.batches++;
    this.stats.syncs++;
    this.stats.appends += batch.length;
    this.stats.bytes += data.length;
    let offset = start;
    const written = batch.map((w, i) => {
      const length = lines[i]!.length - 1;
      const entry = { item: w.item, segment: this.segmentNo, offset, length };
      offset += length + 1;
      return entry;
    });
    this.o.onDurable(written);
    for (const w of batch) w.resolve();
  }

  /** A failed batch is taken back (the file cut to where it started) so later lines stay whole; if even that fails, the writer refuses further appends. */
  private async fail(batch: Waiting<T>[], start: number, cause: Error): Promise<void> {
    const err = new Error(`could not write to disk: ${cause.message}`);
    try {
      await this.o.io.truncate(this.fd, start);
    } catch {
      this.broken = err;
    }
    let failed = batch;
    if (this.o.failQueued) {
      failed = [...batch, ...this.queue];
      this.queue = [];
    }
    this.reject(failed, err);
  }

  private reject(failed: Waiting<T>[], err: Error): void {
    this.o.onFailed?.(failed.map((w) => w.item));
    for (const w of failed) w.reject(err);
  }

  /** The new file's name is made durable (folder synced, off the event loop) before anything in it is acknowledged. */
  private async roll(): Promise<void> {
    closeSync(this.fd);
    this.rollRequested = false;
    this.segmentNo++;
    this.size = 0;
    this.fd = openSync(segmentPath(this.o.dir, this.segmentNo), constants.O_WRONLY | constants.O_CREAT, 0o600);
    await syncFolderAsync(this.o.dir);
  }
}

export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function openSegment(dir: string, segment: number): number {
  // 0600 like every other file of the data folder: what is stored is the user's data.
  const fd = openSync(segmentPath(dir, segment), constants.O_WRONLY | constants.O_CREAT, 0o600);
  syncFolder(dir);
  return fd;
}
