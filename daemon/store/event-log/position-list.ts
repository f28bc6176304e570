/**
 * The positions filed under one index key, ascending, as 32-bit numbers: 4 bytes each instead of
 * a JS array's 8, and loaded from a snapshot as a view of the file's bytes (no copy). Append-only:
 * a view taken for a query or a snapshot stays valid (later pushes land past it, or in a new buffer).
 */
export class PositionList {
  private data: Uint32Array;
  length: number;

  constructor(data: Uint32Array = new Uint32Array(4), length = 0) {
    this.data = data;
    this.length = length;
  }

  /** A full list over `values` (a snapshot's bytes): its first push moves it to a buffer of its own. */
  static over(values: Uint32Array): PositionList {
    return new PositionList(values, values.length);
  }

  push(position: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(Math.max(4, Math.ceil(this.data.length * 1.5)));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = position;
  }

  /** The positions now (a view: valid as long as the list, unaffected by later pushes). */
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }

  bytes(): number {
    return this.data.byteLength;
  }
}
