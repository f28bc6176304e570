import type { EventRow, TraceNode } from '../company-services.js';
import type { FiringStore } from '../../store/runtime-types.js';
import type { EventLog } from '../../store/event-log/types.js';

/** How far up `path` goes: far past the depth guard (8), so a real chain is never cut. */
const MAX_PATH = 64;

/** The events that led to this one, root cause first (empty for a root cause itself). */
async function pathUp(log: EventLog, event: EventRow): Promise<EventRow[]> {
  const path: EventRow[] = [];
  let parent = event.causation_id;
  while (parent && path.length < MAX_PATH) {
    const row = await log.get(parent);
    if (!row) break;
    path.unshift(row);
    parent = row.causation_id;
  }
  return path;
}

/** A trace never grows past this many events; a bigger cascade is cut and marked `truncated`. */
const MAX_TRACE_NODES = 2000;

/**
 * The causation tree of an event: what it fired, and the events those calls caused, down to the
 * leaves. Children are the events whose `causation_id` is this event, oldest first.
 */
export async function buildTrace(
  log: EventLog,
  firings: Pick<FiringStore, 'of' | 'notFiredOf'>,
  eventId: string,
): Promise<(TraceNode & { truncated?: boolean; path?: EventRow[] }) | null> {
  const root = await log.get(eventId);
  if (!root) return null;
  let budget = MAX_TRACE_NODES;
  let truncated = false;
  const seen = new Set<string>();

  const childrenOf = async (id: string): Promise<EventRow[]> => {
    const out: EventRow[] = [];
    let since_id: string | undefined;
    for (;;) {
      const page = await log.query({ causation_id: id, since_id, limit: 1000 });
      out.push(...page.events);
      if (!page.next_since_id) return out;
      since_id = page.next_since_id;
    }
  };

  const build = async (event: EventRow): Promise<TraceNode> => {
    seen.add(event.id);
    budget--;
    const children: TraceNode[] = [];
    for (const child of await childrenOf(event.id)) {
      if (seen.has(child.id)) continue;
      if (budget <= 0) {
        truncated = true;
        break;
      }
      children.push(await build(child));
    }
    return { event, fired: await firings.of(event.id), not_fired: await firings.notFiredOf(event.id), children };
  };

  const tree = await build(root);
  const path = await pathUp(log, root);
  return { ...tree, ...(path.length > 0 ? { path } : {}), ...(truncated ? { truncated } : {}) };
}
