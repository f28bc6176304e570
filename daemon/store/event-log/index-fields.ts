import type { EventRow } from '../../../shared/runtime-records.js';
import { parseEventId } from './event-id.js';

/** What the indexes need of one event: its sequence, time and keys — not its content. */
export interface IndexFields {
  seq: number;
  createdMs: number;
  type: string;
  agent_id: string | null;
  session_id: string | null;
  quest_id: string | null;
  causation_id: string | null;
  correlation_id: string;
  /**
   * The sequence of causation_id / correlation_id when they are event ids, else -1 (saves parsing
   * them again). The start-up scanner leaves such an id's string empty and makes it only if needed.
   */
  causationSeq: number;
  correlationSeq: number;
}

export function fieldsOf(row: EventRow, seq: number): IndexFields {
  return {
    seq,
    createdMs: Date.parse(row.created_at),
    type: row.type,
    agent_id: row.agent_id,
    session_id: row.session_id,
    quest_id: row.quest_id,
    causation_id: row.causation_id,
    correlation_id: row.correlation_id,
    causationSeq: parseEventId(row.causation_id) ?? -1,
    correlationSeq: parseEventId(row.correlation_id) ?? -1,
  };
}
