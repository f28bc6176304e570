import { ErrorCode } from '../../../shared/errors.js';
import type { Clock } from '../../clock.js';
import { checkInput } from '../event-log/log-core.js';
import type { NewEventRow } from '../event-log/types.js';
import { invalid } from '../../domain-error.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { inferSource } from '../event-log/line-format.js';
import { readOrigin } from '../../../shared/event-row.js';

/** An append checked and rendered, waiting for its sequence number (given at commit). */
export interface PendingEvent {
  type: string;
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  causation_id: string | null;
  /** Null: the event's own id (a root cause), known only once its sequence is. */
  correlation_id: string | null;
  created_at: string;
  /** The content as JSON text, stored as written. */
  content: string;
  /** Who put it in the log (CONTRACT §8); stored in its own column since migration 102. */
  source: EventRow['source'];
  /** The call that set the event off, as JSON text (migration 113), or null. */
  origin: string | null;
}

/**
 * The same checks as the file log (a 400 for bad input). They include the text rule PostgreSQL
 * needs (no NUL in a text column), checked before the batch, so a batch never fails for everyone
 * because one event carried one.
 */
export function prepareEvent(input: NewEventRow, clock: Clock): PendingEvent {
  checkInput(input);
  let content: string | undefined;
  try {
    content = JSON.stringify(input.content ?? null);
  } catch {
    throw invalid('content must be plain JSON (no cycles, no BigInt).', ErrorCode.validationFailed);
  }
  return {
    type: input.type,
    agent_id: input.agent_id ?? null,
    session_id: input.session_id ?? null,
    quest_id: input.quest_id ?? null,
    causation_id: input.causation_id ?? null,
    correlation_id: input.correlation_id ?? null,
    created_at: new Date(clock.now()).toISOString(),
    // `undefined` content (a function, say) stringifies to nothing: stored as null, as the file log does.
    content: content ?? 'null',
    source: input.source ?? inferSource({ type: input.type, causation_id: input.causation_id ?? null }),
    origin: input.origin ? JSON.stringify(input.origin) : null,
  };
}

/** The row a pending event becomes once it has its id. */
export function rowOf(pending: PendingEvent, id: string): EventRow {
  return {
    id,
    type: pending.type,
    agent_id: pending.agent_id,
    session_id: pending.session_id,
    quest_id: pending.quest_id,
    content: JSON.parse(pending.content),
    created_at: pending.created_at,
    causation_id: pending.causation_id,
    correlation_id: pending.correlation_id ?? id,
    source: pending.source,
    ...(pending.origin ? { origin: JSON.parse(pending.origin) } : {}),
  };
}

export interface StoredEvent {
  seq: string;
  type: string;
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  causation_id: string | null;
  correlation_id: string;
  created_at: Date;
  content: unknown;
  /** Null on rows written before migration 102: a read infers it from the cause and prefix. */
  source: EventRow['source'] | null;
  /** Null unless a call set the event off. */
  origin: unknown;
}

/** The columns every read selects, in the order StoredEvent names them. */
export const EVENT_COLUMNS =
  'seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content, source, origin';

export function rowFromStored(stored: StoredEvent, formatId: (seq: number) => string): EventRow {
  return {
    id: formatId(Number(stored.seq)),
    type: stored.type,
    agent_id: stored.agent_id,
    session_id: stored.session_id,
    quest_id: stored.quest_id,
    content: stored.content,
    created_at: stored.created_at.toISOString(),
    causation_id: stored.causation_id,
    correlation_id: stored.correlation_id,
    source: stored.source ?? inferSource(stored),
    ...originOf(stored.origin),
  };
}

function originOf(value: unknown): Pick<EventRow, 'origin'> {
  const origin = value === null || value === undefined ? null : readOrigin(value);
  return origin ? { origin } : {};
}
