import type { ApiClient } from '../api-client.js';
import type { EventRow, TraceNode } from '../../shared/runtime-records.js';

/** What happened in one Company since a checkpoint: which configured events fired, which did not and why, the quests. */
export interface Observed {
  fired: Set<string>;
  /** Configured event id → the reasons it was passed over. */
  notFired: Map<string, Set<string>>;
  quests: string[];
  /** Where the next checkpoint starts. */
  cursor: string | null;
}

/** The Company's runtime as the acting user: X-Company on every call. */
export interface CompanyCalls {
  api: () => ApiClient;
  companyId: string;
}

const headersOf = (c: CompanyCalls) => ({ headers: { 'X-Company': c.companyId } });

/** The log's end now: a checkpoint from which later events are read. */
export async function logEnd(c: CompanyCalls): Promise<string | null> {
  let cursor: string | null = null;
  for (;;) {
    const page: { events: EventRow[] } = await c.api().get<{ events: EventRow[] }>('/api/events', {
      ...headersOf(c),
      query: { limit: 1000, ...(cursor ? { since_id: cursor } : {}) },
    });
    if (page.events.length === 0) return cursor;
    cursor = page.events.at(-1)!.id;
  }
}

/** Reads every event after `since`, and each one's own trace node: what it fired and what it passed over. */
export async function observeSince(c: CompanyCalls, since: string | null): Promise<Observed> {
  const seen: Observed = { fired: new Set(), notFired: new Map(), quests: [], cursor: since };
  for (;;) {
    const page = await c.api().get<{ events: EventRow[] }>('/api/events', {
      ...headersOf(c),
      query: { limit: 1000, ...(seen.cursor ? { since_id: seen.cursor } : {}) },
    });
    if (page.events.length === 0) break;
    for (const e of page.events) {
      const node = await c.api().get<TraceNode>('/api/events/trace', { ...headersOf(c), query: { event_id: e.id } });
      for (const f of node.fired ?? []) seen.fired.add(f.configured_event_id);
      for (const n of node.not_fired ?? []) {
        const reasons = seen.notFired.get(n.configured_event_id) ?? new Set<string>();
        seen.notFired.set(n.configured_event_id, reasons.add(n.reason));
      }
      seen.cursor = e.id;
    }
  }
  const quests = await c.api().get<{ quests: Array<{ title: string }> }>('/api/quests', headersOf(c));
  seen.quests = quests.quests.map((q) => q.title);
  return seen;
}
