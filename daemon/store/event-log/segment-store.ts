import { closeSync, openSync, readSync } from 'node:fs';
import { Growable } from './growable.js';
import type { SnapshotParts } from './index-snapshot.js';
import type { LineSource } from './log-core.js';
import { segmentPath } from '../disk/segment-io.js';

/** Neighbouring lines closer than this are read with one pread instead of two. */
const MERGE_GAP = 16 * 1024;
const MAX_READ = 1024 * 1024;
const MAX_OPEN_FILES = 16;

/**
 * Where each event's line sits (segment, offset, length: 12 bytes per event) and how to read it
 * back. Lines are not kept in memory except a small most-recently-used cache, which the newest
 * events enter as they are written, so live followers read from memory.
 */
export class SegmentStore implements LineSource {
  private readonly segments = new Growable(Uint32Array);
  private readonly offsets = new Growable(Uint32Array);
  private readonly lengths = new Growable(Uint32Array);
  private readonly cache = new Map<number, string>();
  private readonly files = new Map<number, number>();
  private closed = false;

  constructor(
    private readonly eventsDir: string,
    private readonly cacheLines = 4096,
  ) {}

  add(segment: number, offset: number, length: number, line?: string): void {
    const position = this.segments.length;
    this.segments.push(segment);
    this.offsets.push(offset);
    this.lengths.push(length);
    if (line !== undefined) this.remember(position, line);
  }

  read(positions: readonly number[]): string[] {
    // After close a read would reopen files nobody closes again.
    if (this.closed && positions.length > 0) throw new Error('the event log is closed');
    const out = new Array<string>(positions.length);
    let i = 0;
    while (i < positions.length) {
      const cached = this.cache.get(positions[i]!);
      if (cached !== undefined) {
        out[i++] = cached;
        continue;
      }
      // A run: the following uncached positions of the same segment, close enough to read at once.
      const first = positions[i]!;
      const segment = this.segments.at(first);
      const start = this.offsets.at(first);
      let end = start + this.lengths.at(first);
      let j = i + 1;
      for (; j < positions.length; j++) {
        const p = positions[j]!;
        if (this.cache.has(p) || this.segments.at(p) !== segment) break;
        const o = this.offsets.at(p);
        const e = o + this.lengths.at(p);
        if (o - end > MERGE_GAP || e - start > MAX_READ) break;
        end = e;
      }
      const buf = this.readRange(segment, start, end - start);
      for (let k = i; k < j; k++) {
        const o = this.offsets.at(positions[k]!) - start;
        out[k] = buf.toString('utf8', o, o + this.lengths.at(positions[k]!));
      }
      i = j;
    }
    return out;
  }

  snapshotParts(): SnapshotParts {
    return { arrays: { segments: this.segments, offsets: this.offsets, lengths: this.lengths }, lists: {} };
  }

  bytes(): number {
    return this.segments.bytes() + this.offsets.bytes() + this.lengths.bytes();
  }

  close(): void {
    this.closed = true;
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
    this.cache.clear();
  }

  private remember(position: number, line: string): void {
    this.cache.set(position, line);
    if (this.cache.size > this.cacheLines) this.cache.delete(this.cache.keys().next().value!);
  }

  private readRange(segment: number, offset: number, length: number): Buffer {
    const fd = this.fileFor(segment);
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buf, done, length - done, offset + done);
      if (n === 0) throw new Error(`event log segment ${segment} is shorter than its index says`);
      done += n;
    }
    return buf;
  }

  private fileFor(segment: number): number {
    let fd = this.files.get(segment);
    if (fd === undefined) {
      if (this.files.size >= MAX_OPEN_FILES) {
        const [oldest, oldFd] = this.files.entries().next().value!;
        closeSync(oldFd);
        this.files.delete(oldest);
      }
      fd = openSync(segmentPath(this.eventsDir, segment), 'r');
    } else this.files.delete(segment);
    this.files.set(segment, fd); // re-inserted: the map's order is least recently used first
    return fd;
  }
}
