import { GroupCommitWriter, type Written } from '../disk/group-commit.js';
import type { SegmentIo } from '../disk/segment-io.js';
import { MemorySpace, type Change } from '../engine/memory-space.js';
import { fingerprintOf } from '../engine/record-text.js';
import type { TableSpec, Table } from '../engine/types.js';
import { compact } from './compaction.js';
import { Durability } from './durability.js';
import { encodeEntry, type Rows } from './entry-format.js';
import type { LoadedJournal } from './load-journal.js';
import type { SnapshotSource } from './snapshot-source.js';
import { captureTables } from './capture-tables.js';
import type { CapturedState } from './snapshot-file.js';

export interface JournalTuning {
  io: SegmentIo;
  segmentBytes: number;
  snapshotBytes: number;
  snapshotEntries: number;
}

export interface JournalStats {
  /** Entries (writes) appended since open, and the batches and syncs they took. */
  entries: number;
  batches: number;
  syncs: number;
  /** Snapshots put in place since open. */
  snapshots: number;
  /** What a start after a crash would replay on top of the snapshot. */
  bytes_since_snapshot: number;
  entries_since_snapshot: number;
  /** The longest the event loop was held by one step of a snapshot (the capture, or one slice of encoding). */
  snapshot_longest_step_ms: number;
}

interface Entry {
  line: string;
  seq: number;
  undo: Change[];
}

/**
 * The journal backend: memory first (so a check-and-set inside `write` is atomic), then one line
 * per write through group commit; the write resolves once its batch is synced. A write that fails
 * to reach the disk is taken back in memory — with every write queued behind it, which may have
 * read it — newest first, before any of them rejects: memory never holds what the disk does not.
 */
export class JournalRecordSpace extends MemorySpace {
  readonly recovery: string[];
  private readonly writer: GroupCommitWriter<Entry>;
  /** Records read from disk for tables not defined yet. */
  private readonly rows: Rows;
  /** The fingerprints the snapshot read at open was written with (for tables not defined yet, carried into the next). */
  private readonly fingerprints: Map<string, string>;
  private readonly source: SnapshotSource | null;
  /** A table defined with other key functions than the snapshot's: the next close writes a snapshot with the new keys. */
  private stale = false;
  private seq: number;
  private readonly durability: Durability;
  private markAtCapture = 0;
  private since: { bytes: number; entries: number };
  private sinceAtCapture = { bytes: 0, entries: 0 };
  private snapshotBytes: number;
  private compacting: Promise<void> | null = null;
  private snapshots = 0;
  private readonly timing = { longestSliceMs: 0 };
  private closed = false;

  constructor(
    readonly dir: string,
    loaded: LoadedJournal,
    private readonly tuning: JournalTuning,
  ) {
    super();
    this.recovery = loaded.recovery;
    this.rows = loaded.rows;
    this.fingerprints = loaded.fingerprints;
    this.source = loaded.source;
    this.seq = loaded.lastSeq;
    this.durability = new Durability(loaded.lastSeq);
    this.since = { bytes: loaded.bytesSinceSnapshot, entries: loaded.entriesSinceSnapshot };
    this.snapshotBytes = loaded.snapshotBytes;
    this.writer = new GroupCommitWriter<Entry>({
      dir,
      io: tuning.io,
      segmentBytes: tuning.segmentBytes,
      segment: loaded.segment,
      size: loaded.tailSize,
      failQueued: true,
      onDurable: (batch) => this.onDurable(batch),
      onFailed: (entries) => this.onFailed(entries),
    });
  }

  override define<T extends object>(spec: TableSpec<T>): Table<T> {
    const table = super.define(spec);
    const rows = this.rows.get(spec.name);
    if (rows) {
      this.rows.delete(spec.name);
      const trusted = this.fingerprints.get(spec.name) === fingerprintOf(spec as TableSpec<object>);
      // Lines without keys (an older release's snapshot) or keys from other key functions: parsed now,
      // and the next close writes them with this code's keys.
      const known = this.fingerprints.get(spec.name);
      if (!trusted && (known !== undefined || this.fingerprints.size === 0)) this.stale = true;
      this.tables.get(spec.name)!.load(rows, this.source, trusted);
    }
    return table;
  }

  override flush(): Promise<void> {
    return this.writer.settle();
  }

  async idle(): Promise<void> {
    // A batch made durable may start a snapshot, and a snapshot waits on batches: loop until both rest.
    do {
      await this.writer.settle();
      await this.compacting;
    } while (this.compacting);
  }

  /** Waits for queued writes, folds the journal into a snapshot (so the next start reads one file), releases the files. */
  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.idle();
    // Only a handle that wrote compacts: a second handle opened just to read (tests do) must not
    // fold and delete segments under the one that is still writing.
    if (this.writer.healthy && this.writer.stats.appends > 0 && this.since.entries > 0 && this.worthFolding())
      await this.compactNow();
    this.writer.close();
    this.source?.close();
  }

  /**
   * At a close, a snapshot is rewritten only when the journal since the last one is worth it (a
   * sixteenth of its size: the next start replays that much, about a sixteenth of what it reads
   * anyway), or when it was written before this code's keys. A daemon that wrote one invite since its
   * start does not rewrite 64 MB of accounts at every stop.
   */
  private worthFolding(): boolean {
    return this.stale || this.since.bytes * 16 >= this.snapshotBytes;
  }

  /** A record read on first use that no longer parses (the file was damaged): said in `recovery`, for the daemon log. */
  protected override damaged(table: string, id: string): void {
    this.recovery.push(`snapshot.jsonl: the record ${table}/${id} no longer parses; it was left out`);
  }

  stats(): JournalStats {
    const { batches, syncs, appends } = this.writer.stats;
    return {
      entries: appends,
      batches,
      syncs,
      snapshots: this.snapshots,
      bytes_since_snapshot: this.since.bytes,
      entries_since_snapshot: this.since.entries,
      snapshot_longest_step_ms: this.timing.longestSliceMs,
    };
  }

  protected override persist(changes: Change[], undo: Change[]): Promise<void> {
    if (this.closed || !this.writer.healthy) {
      this.apply(undo);
      return Promise.reject(
        new Error(this.closed ? 'the store is closed' : 'the store could not write to disk and refuses further writes'),
      );
    }
    const seq = ++this.seq;
    const line = encodeEntry(seq, changes, (table, record) => this.tables.get(table)!.spec.id(record));
    return this.writer.append({ line, seq, undo });
  }

  private onDurable(batch: Written<Entry>[]): void {
    this.durability.durableUpTo(batch.at(-1)!.item.seq);
    for (const w of batch) this.since.bytes += w.length + 1;
    this.since.entries += batch.length;
    const due =
      this.since.bytes >= Math.max(this.tuning.snapshotBytes, this.snapshotBytes / 2) ||
      this.since.entries >= this.tuning.snapshotEntries;
    if (due && !this.compacting && !this.closed)
      this.compacting = this.compactNow().finally(() => (this.compacting = null));
  }

  private onFailed(entries: Entry[]): void {
    for (let i = entries.length - 1; i >= 0; i--) this.apply(entries[i]!.undo);
    // A snapshot captured with any of these in it must not be put in place.
    if (entries.length > 0) this.durability.failedFrom(entries[0]!.seq);
  }

  private async compactNow(): Promise<void> {
    try {
      const host = {
        dir: this.dir,
        capture: () => this.capture(),
        whenDurable: (seq: number) => this.durability.when(seq, this.markAtCapture),
      };
      const size = await compact(host, this.timing);
      if (size !== null) {
        this.snapshotBytes = size;
        this.stale = false;
        this.snapshots++;
        return;
      }
    } catch {
      // The journal still holds everything: a failed snapshot only means a longer replay; the next one retries.
    }
    this.since.bytes += this.sinceAtCapture.bytes;
    this.since.entries += this.sinceAtCapture.entries;
  }

  /** O(records) pointer copies, no encoding: the records are frozen, so holding them is a consistent view. */
  private capture(): CapturedState {
    const segment = this.writer.requestRoll();
    const tables = captureTables(this.tables, this.rows, this.source, this.fingerprints);
    this.sinceAtCapture = this.since;
    this.markAtCapture = this.durability.mark();
    this.since = { bytes: 0, entries: 0 };
    return { seq: this.seq, segment, tables };
  }
}
