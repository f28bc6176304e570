/**
 * The times a throttle counted, oldest first, for one key. Counting after dropping the times that
 * fell out of the period costs what fell out, not what the window holds: a throttle of 100 000 an
 * hour pays the same per firing as one of 5. Times stay sorted even when a test or dev clock is set
 * back (an earlier time is put in its place), so what is dropped is exactly what a filter over all
 * the times would drop.
 */
export class TimeWindow {
  private times: number[] = [];
  private head = 0;
  /** When the newest time falls out of the period it was counted with: then the window is empty. */
  expiresMs = 0;

  get size(): number {
    return this.times.length - this.head;
  }

  /** Drops every time at or before `cutoffMs`. */
  dropUntil(cutoffMs: number): void {
    const { times } = this;
    while (this.head < times.length && times[this.head]! <= cutoffMs) this.head++;
    if (this.head === times.length) (this.times = []), (this.head = 0);
    // Reclaim the dropped front now and then, so the array's size follows the window's.
    else if (this.head >= 1024 && this.head * 2 >= times.length) (this.times = times.slice(this.head)), (this.head = 0);
  }

  add(atMs: number, periodMs: number): void {
    const { times } = this;
    if (this.size === 0 || atMs >= times[times.length - 1]!) times.push(atMs);
    else {
      let lo = this.head;
      let hi = times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (times[mid]! <= atMs) lo = mid + 1;
        else hi = mid;
      }
      times.splice(lo, 0, atMs);
    }
    this.expiresMs = atMs + periodMs;
  }
}
