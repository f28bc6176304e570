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
}
