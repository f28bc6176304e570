import type { TraceNode } from '../company/index.js';
import type { Deps } from '../deps.js';
import { auditId, positionOf } from '../store/audit/chain.js';
import type { AuditEntry, AuditQuery } from '../store/audit-types.js';

/** A call's trace: its entry (who, with what, how it ended) and the events it set off, each with what followed. */
export interface CallTrace {
  call: AuditEntry;
  children: TraceNode[];
  /** Set when the call set off more events than its entry names: the trace shows the first ones. */
  event_count?: number;
}

/** The entry with this id, if the viewer may read it (null otherwise, as for one that does not exist). */
export async function findEntry(
  deps: Pick<Deps, 'stores'>,
  id: string,
  viewer: AuditQuery['viewer'],
): Promise<AuditEntry | null> {
  const position = positionOf(id);
  if (position === null || position < 1) return null;
  const page = await deps.stores.audit.query({ viewer, after: auditId(position - 1), limit: 1 });
  const entry = page.entries[0];
  return entry?.id === id ? entry : null;
}

/**
 * The trace that starts at a call: a tools/call or REST call entry names the events it appended
 * directly (`details.events`); each is traced as `svc events trace` traces an event. Any other
 * entry (a refusal that ran nothing, a login) is a trace of one node with no children.
 */
export async function traceCall(deps: Pick<Deps, 'stores' | 'runtimes'>, entry: AuditEntry): Promise<CallTrace> {
  const ids = Array.isArray(entry.details.events)
    ? (entry.details.events as unknown[]).filter((v): v is string => typeof v === 'string')
    : [];
  const count = typeof entry.details.event_count === 'number' ? entry.details.event_count : undefined;
  if (ids.length === 0 || entry.company_id === null) return { call: entry, children: [] };
  const company = await deps.stores.companies.findById(entry.company_id);
  if (!company) return { call: entry, children: [] };
  const { services } = await deps.runtimes.open({ id: company.id, name: company.name, owner_id: company.owner_id });
  const children: TraceNode[] = [];
  for (const id of ids) {
    const node = await services.events.trace(id);
    if (node) children.push(node);
  }
  return { call: entry, children, ...(count !== undefined ? { event_count: count } : {}) };
}
