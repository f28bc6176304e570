/**
 * Use stamps (a session's `last_seen_at`, a key's `last_used_at`) are written at most once a window
 * per record, and the record read on each request says when the last one was. Requests that arrive
 * together all read the same stale stamp, and each would write it (on a database: a locked
 * read-modify-write each, one after the other on one row). This claims the write for the first of
 * them on this daemon. It only decides whether to write a time stamp; no answer depends on it.
 */
const claimed = new WeakMap<object, Map<string, number>>();
/** Past this many records the memory is forgotten at once: a stamp may then be written once more. */
const MAX_REMEMBERED = 10_000;

/** Whether this caller writes `id`'s stamp now; `owner` (the daemon's stores) keeps daemons in one process apart. */
export function claimTouch(owner: object, id: string, now: number, windowMs: number): boolean {
  let recent = claimed.get(owner);
  if (!recent) claimed.set(owner, (recent = new Map()));
  const last = recent.get(id);
  if (last !== undefined && now >= last && now - last < windowMs) return false;
  if (recent.size >= MAX_REMEMBERED) recent.clear();
  recent.set(id, now);
  return true;
}
