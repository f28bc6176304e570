import { join } from 'node:path';
import { nodeSegmentIo, type SegmentIo } from '../disk/segment-io.js';
import type { Space } from '../engine/types.js';
import { JournalRecordSpace, type JournalStats } from './journal-space.js';
import { loadJournal } from './load-journal.js';

export type { JournalStats } from './journal-space.js';

export interface JournalOptions {
  /** The journal's folder inside `dir` (default `journal`): `<dir>/<name>/`. */
  name?: string;
  /** A segment file is closed and the next started past this size (default 16 MiB). */
  segmentBytes?: number;
  /**
   * A snapshot is taken once the journal has grown this much since the last one (default 4 MiB,
   * and at least half the last snapshot's size, so rewriting stays proportional to writing)…
   */
  snapshotBytes?: number;
  /** …or after this many writes (default 100,000). One is also taken at a clean close. */
  snapshotEntries?: number;
  /** The disk operations (tests count syncs and make writes fail through it). */
  io?: SegmentIo;
}

export interface JournalSpace extends Space {
  /** Problems met while opening (a torn tail cut, a corrupt line skipped, a leftover removed), for the daemon log. */
  readonly recovery: string[];
  stats(): JournalStats;
  /** Resolves once queued writes are on disk (or failed) and a snapshot under way is in place (or abandoned). */
  idle(): Promise<void>;
}

/**
 * Opens (or creates) a record space stored as a JSON Lines journal under `<dir>/<name>/`: the
 * latest snapshot plus the journal entries written after it are read back at open; each write
 * then appends one line, group-committed with fsync, and the journal is folded into a new snapshot
 * now and then and at close (docs/storage.md).
 */
export async function openJournalSpace(dir: string, options: JournalOptions = {}): Promise<JournalSpace> {
  const name = options.name ?? 'journal';
  const folder = join(dir, name);
  const loaded = loadJournal(folder);
  return new JournalRecordSpace(folder, loaded, {
    io: options.io ?? nodeSegmentIo,
    segmentBytes: options.segmentBytes ?? 16 * 1024 * 1024,
    snapshotBytes: options.snapshotBytes ?? 4 * 1024 * 1024,
    snapshotEntries: options.snapshotEntries ?? 100_000,
  });
}
