import { Growable, lowerBoundIn } from './growable.js';
import type { SnapshotParts } from './index-snapshot.js';
import { formatEventId, parseEventId } from './event-id.js';
import type { IndexFields } from './index-fields.js';
import type { IndexedField, PlannedQuery } from './log-query.js';
import { PositionList } from './position-list.js';
import { RefIndex } from './ref-index.js';

const ROOT = 1;
type KeyField = Exclude<IndexedField, 'correlation' | 'causation'>;
const NONE: ArrayLike<number> = new Uint32Array(0);

/**
 * The in-memory indexes of one log, rebuilt at start. Events are numbered by position (0, 1, 2…
 * in id order); each index maps a key to the sorted positions holding it. Per event this costs a
 * few typed-array bytes plus one small integer per index it appears in — no object per event.
 * Correlation and causation, whose values are mostly other events' ids, are chained in typed
 * arrays (RefIndex); a root cause (its own correlation) is marked by one flag byte.
 */
export class EventIndex {
  private readonly seqs = new Growable(Float64Array);
  private readonly created = new Growable(Float64Array);
  /** Running maximum of `created`: non-decreasing even when the clock stepped back, so `since` can binary-search it. */
  private readonly createdMax = new Growable(Float64Array);
  private readonly flags = new Growable(Uint8Array);
  private readonly maps: Record<KeyField, Map<string, PositionList>> = {
    type: new Map(),
    prefix: new Map(),
    agent: new Map(),
    session: new Map(),
    quest: new Map(),
  };
  private readonly correlation = new RefIndex();
  private readonly prefixes = new Map<string, string | null>();
  private readonly causation = new RefIndex();

  /** Its columns and maps by name, live, for the snapshot to save or fill. */
  snapshotParts(): SnapshotParts {
    return {
      arrays: {
        seqs: this.seqs,
        created: this.created,
        createdMax: this.createdMax,
        flags: this.flags,
        ...prefixed('correlation.', this.correlation.snapshotParts().arrays),
        ...prefixed('causation.', this.causation.snapshotParts().arrays),
      },
      lists: {
        ...this.maps,
        ...prefixed('correlation.', this.correlation.snapshotParts().lists),
        ...prefixed('causation.', this.causation.snapshotParts().lists),
      },
    };
  }

  get count(): number {
    return this.seqs.length;
  }

  lastSeq(): number | null {
    return this.seqs.last() ?? null;
  }

  seqAt(position: number): number {
    return this.seqs.at(position);
  }

  /** Adds the next event (its id must be above every id already indexed); returns its position. */
  add(row: IndexFields): number {
    const position = this.seqs.length;
    this.seqs.push(row.seq);
    this.created.push(row.createdMs);
    this.createdMax.push(Math.max(row.createdMs, this.createdMax.last() ?? -Infinity));
    const root = row.correlationSeq === row.seq;
    this.flags.push(root ? ROOT : 0);
    this.put('type', row.type, position);
    const prefix = this.prefixOf(row.type);
    if (prefix !== null) this.put('prefix', prefix, position);
    if (row.agent_id !== null) this.put('agent', row.agent_id, position);
    if (row.session_id !== null) this.put('session', row.session_id, position);
    if (row.quest_id !== null) this.put('quest', row.quest_id, position);
    if (root) this.correlation.add(position, -1, null);
    else this.addRef(this.correlation, position, row.correlation_id, row.correlationSeq);
    if (row.causation_id === null) this.causation.add(position, -1, null);
    else this.addRef(this.causation, position, row.causation_id, row.causationSeq);
    return position;
  }

  /** The position of an id (a string that may or may not be one), or -1. */
  positionOfId(id: string | null): number {
    const seq = id === null ? null : parseEventId(id);
    return seq === null ? -1 : this.positionOf(seq);
  }

  /** The position of a sequence number, or -1. */
  positionOf(seq: number): number {
    const p = this.seqs.lowerBound(seq);
    return p < this.seqs.length && this.seqs.at(p) === seq ? p : -1;
  }

  /** Positions of the matching events, oldest first, at most `limit`; `more` when another match follows. */
  select(q: PlannedQuery): { positions: number[]; more: boolean } {
    let start = q.afterSeq === null ? 0 : this.seqs.upperBound(q.afterSeq);
    if (q.sinceMs !== null) start = Math.max(start, this.createdMax.lowerBound(q.sinceMs));
    const lists: ArrayLike<number>[] = q.filters
      .map((f) => this.listFor(f.field, f.key))
      .sort((a, b) => a.length - b.length);
    const out: number[] = [];
    const keep = (p: number) => q.sinceMs === null || this.created.at(p) >= q.sinceMs;
    if (lists.length === 0) {
      for (let p = start; p < this.count && out.length <= q.limit; p++) if (keep(p)) out.push(p);
    } else {
      const [driver, ...others] = lists as [ArrayLike<number>, ...ArrayLike<number>[]];
      // Walk the shortest list; the others only move forward, so each keeps a cursor.
      const cursors = others.map(() => 0);
      for (let i = lowerBoundIn(driver, start); i < driver.length && out.length <= q.limit; i++) {
        const p = driver[i]!;
        let all = true;
        for (let k = 0; k < others.length && all; k++) {
          cursors[k] = lowerBoundIn(others[k]!, p, cursors[k]);
          all = others[k]![cursors[k]!] === p;
        }
        if (all && keep(p)) out.push(p);
      }
    }
    const more = out.length > q.limit;
    if (more) out.length = q.limit;
    return { positions: out, more };
  }

  /** Approximate bytes held by the columns and index lists, for the memory report. */
  bytes(): number {
    let total = this.seqs.bytes() + this.created.bytes() + this.createdMax.bytes() + this.flags.bytes();
    for (const map of Object.values(this.maps))
      for (const [key, list] of map) total += key.length * 2 + list.bytes() + 64;
    return total + this.correlation.bytes() + this.causation.bytes();
  }

  private addRef(index: RefIndex, position: number, key: string, seq: number): void {
    const target = seq < 0 ? -1 : this.positionOf(seq);
    // Only a reference to an event that is not (or no longer) in the log needs its string.
    index.add(position, target, target < 0 && key === '' ? formatEventId(seq) : key);
  }

  /** `session` for `session:start`; null without a colon. Cached: there are few types and many events. */
  private prefixOf(type: string): string | null {
    let prefix = this.prefixes.get(type);
    if (prefix === undefined) {
      const colon = type.indexOf(':');
      prefix = colon > 0 ? type.slice(0, colon) : null;
      if (this.prefixes.size < 10_000) this.prefixes.set(type, prefix);
    }
    return prefix;
  }

  private put(field: KeyField, key: string, position: number): void {
    let list = this.maps[field].get(key);
    if (!list) this.maps[field].set(key, (list = new PositionList()));
    list.push(position);
  }

  private listFor(field: IndexedField, key: string): ArrayLike<number> {
    if (field === 'causation') return this.causation.list(this.positionOfId(key), key);
    if (field !== 'correlation') return this.maps[field].get(key)?.view() ?? NONE;
    const target = this.positionOfId(key);
    const list = this.correlation.list(target, key);
    // The root cause carries its own id as correlation and is not chained to itself: add it back.
    if (target < 0 || this.flags.at(target) !== ROOT) return list;
    const at = lowerBoundIn(list, target);
    list.splice(at, 0, target);
    return list;
  }
}

function prefixed<T>(prefix: string, record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [prefix + k, v]));
}
