import { ErrorCode } from '../../../shared/errors.js';
import { invalid } from '../../domain-error.js';
import { storableTextProblem } from '../../../shared/schemas/storable-text.js';
import { parseEventId } from './event-id.js';
import type { LogQuery } from './types.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type IndexedField = 'type' | 'prefix' | 'agent' | 'session' | 'quest' | 'correlation' | 'causation';

/** A query checked and reduced to what the index answers: exact-key filters (AND), two lower bounds, a limit. */
export interface PlannedQuery {
  filters: { field: IndexedField; key: string }[];
  /** Only events whose sequence is greater than this (from `since_id`). */
  afterSeq: number | null;
  /** Only events created at or after this instant (from `since`). */
  sinceMs: number | null;
  limit: number;
}

/** Each filter by the name the caller gave it (LogQuery's fields). */
const FILTER_NAMES: Record<IndexedField, string> = {
  type: 'event_type',
  prefix: 'prefix',
  agent: 'agent_id',
  session: 'session_id',
  quest: 'quest_id',
  correlation: 'correlation_id',
  causation: 'causation_id',
};

const given = (v: string | undefined | null): v is string => typeof v === 'string';

/** Checks a query; a malformed cursor or timestamp is the caller's mistake (400), never an empty page. */
export function planQuery(query: LogQuery): PlannedQuery {
  const filters: PlannedQuery['filters'] = [];
  if (given(query.event_type)) filters.push({ field: 'type', key: query.event_type });
  // `session` and `session:` both mean the session: prefix.
  if (given(query.prefix)) filters.push({ field: 'prefix', key: query.prefix.replace(/:$/, '') });
  if (given(query.agent_id)) filters.push({ field: 'agent', key: query.agent_id });
  if (given(query.session_id)) filters.push({ field: 'session', key: query.session_id });
  if (given(query.quest_id)) filters.push({ field: 'quest', key: query.quest_id });
  if (given(query.correlation_id)) filters.push({ field: 'correlation', key: query.correlation_id });
  if (given(query.causation_id)) filters.push({ field: 'causation', key: query.causation_id });
  // A filter is compared with the logs' columns: the same text rule as an append (checkInput), so
  // a NUL is a 400 on every log rather than an empty page on one and a failed query on PostgreSQL.
  for (const { field, key } of filters) {
    const problem = storableTextProblem(key);
    if (problem) throw invalid(`${FILTER_NAMES[field]} ${problem}.`, ErrorCode.validationFailed);
  }

  let afterSeq: number | null = null;
  if (given(query.since_id)) {
    afterSeq = parseEventId(query.since_id);
    if (afterSeq === null)
      throw invalid(
        `since_id '${query.since_id}' is not an event id (evt_ followed by 16 digits).`,
        ErrorCode.validationFailed,
      );
  }
  let sinceMs: number | null = null;
  if (given(query.since)) {
    sinceMs = Date.parse(query.since);
    if (Number.isNaN(sinceMs))
      throw invalid(
        `since '${query.since}' is not an ISO timestamp (e.g. 2026-01-15T12:00:00Z).`,
        ErrorCode.validationFailed,
      );
  }
  return { filters, afterSeq, sinceMs, limit: clampLimit(query.limit) };
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || limit === null || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}
