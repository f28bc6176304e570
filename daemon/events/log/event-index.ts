import type { EventRow } from '../../runtime/services.js';
import { Growable, lowerBoundIn } from './growable.js';
import { parseEventId } from './event-id.js';
import type { IndexedField, PlannedQuery } from './log-query.js';

const ROOT = 1;
const NONE: readonly number[] = [];

/**
 * The in-memory indexes of one log, rebuilt at start. Events are numbered by position (0, 1, 2…
 * in id order); each index maps a key to the sorted positions holding it. Per event this costs a
 * few typed-array bytes plus one small integer per index it appears in — no object per event.
 * Correlation and causation only list the events that have them set to something else than
 * themselves / null, which is most of the time nothing: a root cause is marked by one flag byte.
 */
export class EventIndex {
  private readonly seqs = new Growable(Float64Array);
  private readonly created = new Growable(Float64Array);
  /** Running maximum of `created`: non-decreasing even when the clock stepped back, so `since` can binary-search it. */
  private readonly createdMax = new Growable(Float64Array);
  private readonly flags = new Growable(Uint8Array);
  private readonly maps: Record<IndexedField, Map<string, number[]>> = {
    type: new Map(),
    prefix: new Map(),
    agent: new Map(),
    session: new Map(),
    quest: new Map(),
    correlation: new Map(),
    causation: new Map(),
  };

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
  add(row: EventRow, seq: number): number {
    const position = this.seqs.length;
    const createdMs = Date.parse(row.created_at);
    this.seqs.push(seq);
    this.created.push(createdMs);
    this.createdMax.push(Math.max(createdMs, this.createdMax.last() ?? -Infinity));
    const root = row.correlation_id === row.id;
    this.flags.push(root ? ROOT : 0);
    this.put('type', row.type, position);
    const colon = row.type.indexOf(':');
    if (colon > 0) this.put('prefix', row.type.slice(0, colon), position);
    if (row.agent_id !== null) this.put('agent', row.agent_id, position);
    if (row.session_id !== null) this.put('session', row.session_id, position);
    if (row.quest_id !== null) this.put('quest', row.quest_id, position);
    if (!root) this.put('correlation', row.correlation_id, position);
    if (row.causation_id !== null) this.put('causation', row.causation_id, position);
    return position;
  }

  /** The position of an id, or -1. */
  positionOf(seq: number): number {
    const p = this.seqs.lowerBound(seq);
    return p < this.seqs.length && this.seqs.at(p) === seq ? p : -1;
  }

  /** Positions of the matching events, oldest first, at most `limit`; `more` when another match follows. */
  select(q: PlannedQuery): { positions: number[]; more: boolean } {
    let start = q.afterSeq === null ? 0 : this.seqs.upperBound(q.afterSeq);
    if (q.sinceMs !== null) start = Math.max(start, this.createdMax.lowerBound(q.sinceMs));
    const lists = q.filters.map((f) => this.listFor(f.field, f.key)).sort((a, b) => a.length - b.length);
    const out: number[] = [];
    const keep = (p: number) => q.sinceMs === null || this.created.at(p) >= q.sinceMs;
    if (lists.length === 0) {
      for (let p = start; p < this.count && out.length <= q.limit; p++) if (keep(p)) out.push(p);
    } else {
      const [driver, ...others] = lists as [readonly number[], ...(readonly number[])[]];
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
    for (const map of Object.values(this.maps)) for (const [key, list] of map) total += key.length * 2 + list.length * 8 + 64;
    return total;
  }

  private put(field: IndexedField, key: string, position: number): void {
    const list = this.maps[field].get(key);
    if (list) list.push(position);
    else this.maps[field].set(key, [position]);
  }

  private listFor(field: IndexedField, key: string): readonly number[] {
    const list = this.maps[field].get(key) ?? NONE;
    if (field !== 'correlation') return list;
    // The root cause carries its own id as correlation and is not listed: add it back.
    const seq = parseEventId(key);
    const root = seq === null ? -1 : this.positionOf(seq);
    if (root < 0 || this.flags.at(root) !== ROOT) return list;
    const at = lowerBoundIn(list, root);
    return [...list.slice(0, at), root, ...list.slice(at)];
  }
}
