import type { EventRow, Firing, TraceNode } from '../runtime/services.js';
import type { EventLog } from './log/types.js';

/** A trace never grows past this many events; a bigger cascade is cut and marked `truncated`. */
export const MAX_TRACE_NODES = 2000;

/**
 * The causation tree of an event: what it fired, and the events those calls caused, down to the
 * leaves. Children are the events whose `causation_id` is this event, oldest first.
 */
export async function buildTrace(log: EventLog, firingsOf: (id: string) => Promise<Firing[]>, eventId: string): Promise<(TraceNode & { truncated?: boolean }) | null> {
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
    return { event, fired: await firingsOf(event.id), children };
  };

  const tree = await build(root);
  return truncated ? { ...tree, truncated } : tree;
}
