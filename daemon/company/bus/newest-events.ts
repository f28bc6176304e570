import type { EventFilter, EventRow } from '../../../shared/runtime-records.js';
import { formatEventId, MAX_LIMIT, parseEventId } from '../../store/event-log/index.js';
import type { EventsService } from '../company-services.js';

/**
 * The newest `count` events that match, oldest first (`GET /api/events?last=N`). Every log reads
 * forward only, by id; ids are a gapless sequence, so this walks back from the log's end in
 * windows that grow fourfold, each read forward through the index, until enough events match or
 * the window reaches the start. A rare filter costs a few windows, never a pass per event.
 */
export async function listNewest(
  events: Pick<EventsService, 'list' | 'lastId'>,
  filter: Omit<EventFilter, 'since_id' | 'limit'>,
  count: number,
): Promise<EventRow[]> {
  const last = events.lastId ? await events.lastId() : null;
  const end = last ? parseEventId(last) : null;
  if (end === null) return last === null && events.lastId ? [] : readForward(events, filter, 0, Infinity, count);
  for (let window = count * 4; ; window *= 4) {
    const start = Math.max(0, end - window);
    const found = await readForward(events, filter, start, end, count);
    if (found.length >= count || start === 0) return found;
  }
}

/** The last `keep` matching events with ids in (start, end]: events appended during the walk are left for a follower. */
async function readForward(
  events: Pick<EventsService, 'list'>,
  filter: Omit<EventFilter, 'since_id' | 'limit'>,
  start: number,
  end: number,
  keep: number,
): Promise<EventRow[]> {
  const kept: EventRow[] = [];
  let cursor: string | undefined = start > 0 ? formatEventId(start) : undefined;
  for (;;) {
    const page = await events.list({ ...filter, since_id: cursor, limit: MAX_LIMIT });
    let past = false;
    for (const e of page.events) {
      if ((parseEventId(e.id) ?? 0) > end) past = true;
      else kept.push(e);
    }
    if (kept.length > keep) kept.splice(0, kept.length - keep);
    if (past || !page.next_since_id) return kept;
    cursor = page.next_since_id;
  }
}
