/** One row of the event log as the daemon stores it and the API (and its SSE stream) sends it. */

export const EVENT_SOURCES = ['emitter', 'schedule', 'webhook', 'tool_call', 'manual', 'replay'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** One row of the event log: spec §2.1 plus the causation links trace follows. */
export interface EventRow {
  id: string;
  type: string;
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  content: unknown;
  created_at: string;
  /** The event whose tool call caused this one; null for a root cause. */
  causation_id: string | null;
  /** The root cause's id, shared by everything it set off. */
  correlation_id: string;
  /** Who put it in the log (CONTRACT §8); rows written by older releases, which lack it, get it inferred when read. */
  source: EventSource;
  /**
   * The call that set this event off, on events appended while an MCP tools/call or a REST call
   * made with a key or token ran (and on the events they caused in turn): absent otherwise.
   */
  origin?: EventOrigin;
}

/**
 * The call an event came from (docs/audit.md, "One trace"): what was called, with which
 * credential, and the caller's W3C trace context. The call's own audit entry holds the outcome.
 */
export interface EventOrigin {
  /** `mcp.tools_call` or `rest.call`: the audit action that records the call. */
  action: string;
  /** `quests.create`, `POST /api/events/trigger`. */
  target: string;
  /** The HTTP request the call came in, as its audit entry names it. */
  request_id: string | null;
  actor: {
    type: 'key' | 'oauth';
    user_id: string | null;
    key_id: string | null;
    client_id: string | null;
    grant_id: string | null;
  };
  /** The W3C `traceparent` the MCP request carried in `params._meta`, when it was well-formed. */
  traceparent: string | null;
}

/** An origin as read back from storage: the shape above, else null (a line edited by hand, a future field). */
export function readOrigin(value: unknown): EventOrigin | null {
  const o = value as Partial<EventOrigin> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return null;
  const text = (v: unknown) => v === null || typeof v === 'string';
  const a = o.actor as Partial<EventOrigin['actor']> | undefined;
  if (typeof o.action !== 'string' || typeof o.target !== 'string' || !text(o.request_id) || !text(o.traceparent))
    return null;
  if (!a || (a.type !== 'key' && a.type !== 'oauth')) return null;
  if (![a.user_id, a.key_id, a.client_id, a.grant_id].every(text)) return null;
  return o as EventOrigin;
}
