import { Growable } from './growable.js';
import type { SnapshotParts } from './index-snapshot.js';
import { PositionList } from './position-list.js';

/**
 * An index over a field that names another event (causation, correlation). Most values are ids
 * of events already in the log, and there can be as many distinct values as events, so a map of
 * lists would cost an entry and an array per value. Instead each referenced event holds the
 * first and last of its referrers and each referrer the next one: three 32-bit numbers per event,
 * no allocation. A value that is not an earlier event's id (a caller-chosen correlation) goes to
 * a small map instead.
 */
export class RefIndex {
  // Positions are stored + 1, so 0 means "none".
  private readonly first = new Growable(Uint32Array);
  private readonly last = new Growable(Uint32Array);
  private readonly next = new Growable(Uint32Array);
  private readonly others = new Map<string, PositionList>();

  /** Registers `position` (the next one) as referring to the event at `target` (-1: not an event; `key` then). */
  add(position: number, target: number, key: string | null): void {
    this.first.push(0);
    this.last.push(0);
    this.next.push(0);
    if (key === null) return;
    if (target < 0) {
      let list = this.others.get(key);
      if (!list) this.others.set(key, (list = new PositionList()));
      list.push(position);
      return;
    }
    const tail = this.last.at(target);
    if (tail === 0) this.first.set(target, position + 1);
    else this.next.set(tail - 1, position + 1);
    this.last.set(target, position + 1);
  }

  /** The referrers of `target` (or of `key`), ascending. */
  list(target: number, key: string): number[] {
    const out: number[] = [];
    for (let p = target < 0 ? 0 : this.first.at(target); p !== 0; p = this.next.at(p - 1)) out.push(p - 1);
    const more = this.others.get(key);
    return more ? [...out, ...more.view()].sort((a, b) => a - b) : out;
  }

  snapshotParts(): SnapshotParts {
    return { arrays: { first: this.first, last: this.last, next: this.next }, lists: { others: this.others } };
  }

  bytes(): number {
    let total = this.first.bytes() + this.last.bytes() + this.next.bytes();
    for (const [key, list] of this.others) total += key.length * 2 + list.bytes() + 64;
    return total;
  }
}
