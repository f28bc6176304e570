import type { Clock } from '../../clock.js';
import { isoAt } from '../../clock.js';
import type { EventRow } from '../../runtime/services.js';
import type { EventLog, LogQuery, NewEventRow } from './types.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

/**
 * A small, correct EventLog over one array (issue 6's stand-in; the JSON Lines log of the storage
 * issue replaces it at merge). Ids are `ev_<time><sequence>` with a time that never steps back,
 * so plain string order is append order and `since_id` pages have no gaps and no repeats.
 * "Durable" here means "in memory": nothing outlives the process.
 */
export function createArrayEventLog(options: { clock: Clock }): EventLog {
  const rows: EventRow[] = [];
  const byId = new Map<string, EventRow>();
  let lastTime = 0;
  let seq = 0;

  const nextId = () => {
    lastTime = Math.max(lastTime, options.clock.now());
    seq++;
    return `ev_${lastTime.toString(36).padStart(9, '0')}${seq.toString(36).padStart(8, '0')}`;
  };

  return {
    recovery: [],
    async append(input: NewEventRow): Promise<EventRow> {
      const id = nextId();
      const row: EventRow = {
        id,
        type: input.type,
        agent_id: input.agent_id ?? null,
        session_id: input.session_id ?? null,
        quest_id: input.quest_id ?? null,
        content: input.content ?? null,
        created_at: isoAt(options.clock.now()),
        causation_id: input.causation_id ?? null,
        correlation_id: input.correlation_id ?? id,
      };
      rows.push(row);
      byId.set(id, row);
      return row;
    },
    get: (id) => byId.get(id),
    query: (query) => queryRows(rows, query),
    lastId: () => rows.at(-1)?.id ?? null,
    close: async () => {},
  };
}

function queryRows(rows: EventRow[], query: LogQuery): { events: EventRow[]; next_since_id: string | null } {
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const sinceMs = query.since !== undefined ? Date.parse(query.since) : undefined;
  const events: EventRow[] = [];
  for (let i = firstAfter(rows, query.since_id); i < rows.length; i++) {
    const row = rows[i]!;
    if (!matches(row, query, sinceMs)) continue;
    if (events.length === limit) return { events, next_since_id: events.at(-1)!.id };
    events.push(row);
  }
  return { events, next_since_id: null };
}

/** Binary search: the index of the first row whose id sorts after `sinceId`. */
function firstAfter(rows: EventRow[], sinceId: string | undefined): number {
  if (sinceId === undefined) return 0;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.id <= sinceId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function matches(row: EventRow, q: LogQuery, sinceMs: number | undefined): boolean {
  if (q.event_type !== undefined && row.type !== q.event_type) return false;
  if (q.prefix !== undefined && !row.type.startsWith(`${q.prefix}:`)) return false;
  if (q.agent_id !== undefined && row.agent_id !== q.agent_id) return false;
  if (q.session_id !== undefined && row.session_id !== q.session_id) return false;
  if (q.quest_id !== undefined && row.quest_id !== q.quest_id) return false;
  if (q.correlation_id !== undefined && row.correlation_id !== q.correlation_id) return false;
  if (q.causation_id !== undefined && row.causation_id !== q.causation_id) return false;
  if (sinceMs !== undefined && Date.parse(row.created_at) < sinceMs) return false;
  return true;
}
