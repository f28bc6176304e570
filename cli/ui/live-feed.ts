/**
 * The data behind a live view, kept apart from Ink so the command's follow loop can feed it
 * without importing React. Only the last `max` rows are kept: a tail left running for days must
 * not grow without bound, and a terminal cannot show more than a screenful anyway.
 */
export interface LiveCell {
  text: string;
  /** An Ink colour name; ignored when colours are off (NO_COLOR, not a terminal). */
  color?: string;
  dim?: boolean;
  bold?: boolean;
}

export interface LiveRow {
  key: string;
  cells: LiveCell[];
}

export type LiveStatus =
  | { state: 'connecting' }
  | { state: 'connected' }
  | { state: 'reconnecting'; until: number; reason: string };

export interface LiveFeed {
  push(row: LiveRow): void;
  rows(): LiveRow[];
  /** How many rows were ever pushed (not only those kept). */
  total(): number;
  status(): LiveStatus;
  setStatus(status: LiveStatus): void;
  /** Calls `listener` (once per burst of changes) after pushes or status changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createLiveFeed(max = 500): LiveFeed {
  let kept: LiveRow[] = [];
  let total = 0;
  let status: LiveStatus = { state: 'connecting' };
  const listeners = new Set<() => void>();
  let scheduled = false;
  // A page of 1000 events is one re-render, not 1000: changes are coalesced to the next microtask.
  const notify = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      for (const l of listeners) l();
    });
  };
  return {
    push(row) {
      total++;
      kept.push(row);
      // Trim in chunks so the copy happens once per `max / 2` pushes, not on every push.
      if (kept.length > max + Math.ceil(max / 2)) kept = kept.slice(-max);
      notify();
    },
    rows: () => (kept.length > max ? kept.slice(-max) : kept.slice()),
    total: () => total,
    status: () => status,
    setStatus(next) {
      status = next;
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
