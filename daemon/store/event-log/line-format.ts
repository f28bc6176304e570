import { EVENT_SOURCES, type EventRow, type EventSource } from '../../../shared/runtime-records.js';
import { readOrigin } from '../../../shared/event-row.js';
import { parseEventId } from './event-id.js';

/**
 * One event is one line of JSON, keys in a fixed order (content last, the only free-form field).
 * Every line read back is checked field by field: a line that parses as JSON but is not an event
 * is as corrupt as one that does not parse.
 */
export function encodeEventLine(row: EventRow): string {
  return JSON.stringify({
    id: row.id,
    type: row.type,
    agent_id: row.agent_id,
    session_id: row.session_id,
    quest_id: row.quest_id,
    causation_id: row.causation_id,
    correlation_id: row.correlation_id,
    created_at: row.created_at,
    // Just before content, which stays last: the start-up scanner skips it; lines of older releases lack it.
    source: row.source,
    // Only on events a call set off (between source and content: the start-up scanner skips it).
    ...(row.origin ? { origin: row.origin } : {}),
    content: row.content,
  });
}

const nullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** The event on a line, or null when the line is not one (corrupt, truncated, foreign). */
export function decodeEventLine(line: string): EventRow | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const row = value as Record<string, unknown>;
  if (parseEventId(row.id) === null || typeof row.type !== 'string' || typeof row.correlation_id !== 'string')
    return null;
  if (!nullableString(row.agent_id) || !nullableString(row.session_id) || !nullableString(row.quest_id)) return null;
  if (!nullableString(row.causation_id) || typeof row.created_at !== 'string' || !('content' in row)) return null;
  if (Number.isNaN(Date.parse(row.created_at))) return null;
  if (!(EVENT_SOURCES as readonly unknown[]).includes(row.source)) row.source = inferSource(row as unknown as EventRow);
  if ('origin' in row) {
    // A damaged origin loses the origin, not the event: the event itself is intact.
    const origin = readOrigin(row.origin);
    if (origin) row.origin = origin;
    else delete row.origin;
  }
  return row as unknown as EventRow;
}

/** A row from before `source` existed: its cause and prefix say enough (a manual trigger reads as `emitter`). */
export function inferSource(row: Pick<EventRow, 'type' | 'causation_id'>): EventSource {
  if (row.causation_id) return 'tool_call';
  if (row.type.startsWith('schedule:')) return 'schedule';
  if (row.type.startsWith('webhook:')) return 'webhook';
  return 'emitter';
}
