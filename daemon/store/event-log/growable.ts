/**
 * Append-only typed arrays: the per-event columns of the index (sequence, time, file location)
 * cost a few bytes per event instead of a JS object per event.
 */
export type TypedArray = Float64Array | Uint32Array | Uint8Array;
type Ctor<T extends TypedArray> = new (length: number) => T;

export class Growable<T extends TypedArray> {
  private data: T;
  length = 0;
  /** True once a value was changed in place (not only appended): a snapshot must then copy it, not view it. */
  rewritten = false;

  constructor(
    private readonly ctor: Ctor<T>,
    capacity = 1024,
  ) {
    this.data = new ctor(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      // Half again, not double: a column of millions of events loaded at start should not double on its first append.
      const next = new this.ctor(Math.max(1024, Math.ceil(this.data.length * 1.5)));
      next.set(this.data as never);
      this.data = next;
    }
    this.data[this.length++] = value;
  }

  set(index: number, value: number): void {
    this.rewritten = true;
    this.data[index] = value;
  }

  at(index: number): number {
    return this.data[index]!;
  }

  last(): number | undefined {
    return this.length > 0 ? this.data[this.length - 1] : undefined;
  }

  /** First index whose value is >= `value` (the column must be non-decreasing). */
  lowerBound(value: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose value is > `value` (the column must be non-decreasing). */
  upperBound(value: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.data[mid]! <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The values (a view, valid until the next push). */
  contents(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** Replaces every value (loading a snapshot). */
  replace(values: ArrayLike<number>): void {
    this.data = new this.ctor(Math.max(1024, values.length));
    this.data.set(values as never);
    this.length = values.length;
  }

  /**
   * Makes room for exactly `length` values (plus a little headroom for appends) and returns the
   * view to fill them into: a snapshot is read straight into it, without an intermediate copy.
   */
  load(length: number): T {
    this.data = new this.ctor(Math.max(1024, length + (length >> 4)));
    this.length = length;
    return this.data.subarray(0, length) as T;
  }

  /** Bytes held, for the memory report. */
  bytes(): number {
    return this.data.byteLength;
  }
}

/** First index in the sorted `list` at or after `from` whose value is >= `value`. */
export function lowerBoundIn(list: ArrayLike<number>, value: number, from = 0): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
