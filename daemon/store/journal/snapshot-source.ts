import { closeSync, openSync, readSync } from 'node:fs';
import type { IndexKey, StoredLines } from '../engine/types.js';

/** A read for the next snapshot (lines in file order) takes this much at once. */
const BLOCK_BYTES = 256 * 1024;

/**
 * The snapshot file a space was opened from, kept open: records loaded unparsed (a number in their
 * table: the line's position here) are read from it the first time they are used, and copied from
 * it as they are into the next snapshot. The file never changes once in place (a new snapshot is
 * renamed over it; this descriptor keeps reading the one it opened), so a position stays valid
 * until `close`. Each line costs 12 bytes here instead of its text or its objects in memory.
 */
export class SnapshotSource implements StoredLines {
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  /** Each line's keys until its table takes them (`takeKeys`). */
  private keys: (IndexKey[] | undefined)[] = [];
  private count = 0;
  private fd: number | null;
  private block = { start: 0, end: 0, data: Buffer.alloc(0) };

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  /** Registers the next line; returns its position. */
  add(offset: number, length: number, keys: IndexKey[]): number {
    if (this.count === this.offsets.length) {
      this.offsets = grown(this.offsets, new Float64Array(this.count * 2));
      this.lengths = grown(this.lengths, new Uint32Array(this.count * 2));
    }
    this.offsets[this.count] = offset;
    this.lengths[this.count] = length;
    this.keys.push(keys);
    return this.count++;
  }

  takeKeys(position: number): IndexKey[] {
    const keys = this.keys[position]!;
    this.keys[position] = undefined;
    return keys;
  }

  /** Forgets the keys no table took (called once every table is loaded). */
  dropKeys(): void {
    this.keys = [];
  }

  /**
   * The line at `position`. Reads go through a block that is kept: lines read in file order (a
   * snapshot being written) cost one read per block, a lone record one small read.
   */
  line(position: number): string {
    if (this.fd === null) throw new Error('the store is closed');
    const start = this.offsets[position]!;
    const end = start + this.lengths[position]!;
    const b = this.block;
    if (start < b.start || end > b.end) {
      // The line after the block's (past its newline): a snapshot is copying lines in order, so read ahead.
      const size = start >= b.start && start <= b.end + 1 ? Math.max(end - start, BLOCK_BYTES) : end - start;
      const data = b.data.length >= size ? b.data : Buffer.allocUnsafe(size);
      let got = 0;
      while (got < end - start) {
        const n = readSync(this.fd, data, got, size - got, start + got);
        if (n === 0) break;
        got += n;
      }
      this.block = { start, end: start + got, data };
      if (got < end - start) throw new Error('the snapshot file is shorter than when it was opened');
    }
    return this.block.data.toString('utf8', start - this.block.start, end - this.block.start);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function grown<T extends Float64Array | Uint32Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
