import type { AuditEntry, AuditPage, AuditQuery } from '../audit-types.js';

/** Whether one entry is in a query's answer (every given filter must hold). */
export function matches(e: AuditEntry, q: AuditQuery): boolean {
  if (q.viewer !== 'all') {
    const own = q.viewer.user_id !== null && e.user_id === q.viewer.user_id;
    if (!own && !(e.company_id !== null && q.viewer.company_ids.includes(e.company_id))) return false;
  }
  if (q.company_id !== undefined && e.company_id !== q.company_id) return false;
  if (q.action !== undefined && e.action !== q.action && !e.action.startsWith(`${q.action}.`)) return false;
  if (q.actor !== undefined && ![e.actor.user_id, e.actor.key_id, e.actor.client_id].includes(q.actor)) return false;
  if (q.key_id !== undefined && e.actor.key_id !== q.key_id) return false;
  if (q.outcome !== undefined && e.outcome !== q.outcome) return false;
  if (q.since !== undefined && e.at < q.since) return false;
  if (q.until !== undefined && e.at >= q.until) return false;
  return true;
}

/**
 * One page over entries held oldest first (ids ascend): newest first from `before`, or oldest
 * first after `after` (a follower's cursor). Looks one match past the limit to know if more follows.
 */
export function pageOf(all: readonly AuditEntry[], q: AuditQuery): AuditPage {
  const out: AuditEntry[] = [];
  if (q.after !== undefined) {
    for (let i = upperBound(all, q.after); i < all.length && out.length <= q.limit; i++)
      if (matches(all[i]!, q)) out.push(all[i]!);
    const more = out.length > q.limit;
    const entries = out.slice(0, q.limit);
    return { entries, next_cursor: more ? (entries.at(-1)?.id ?? null) : null };
  }
  const from = q.before === undefined ? all.length : lowerBound(all, q.before);
  for (let i = from - 1; i >= 0 && out.length <= q.limit; i--) if (matches(all[i]!, q)) out.push(all[i]!);
  const more = out.length > q.limit;
  const entries = out.slice(0, q.limit);
  return { entries, next_cursor: more ? (entries.at(-1)?.id ?? null) : null };
}

/** The index of the first entry whose id is >= id. */
function lowerBound(all: readonly AuditEntry[], id: string): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the first entry whose id is > id. */
function upperBound(all: readonly AuditEntry[], id: string): number {
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.id <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
