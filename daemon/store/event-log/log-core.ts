import type { Clock } from '../../clock.js';
import { ErrorCode } from '../../../shared/errors.js';
import { storableTextProblem } from '../../../shared/schemas/storable-text.js';
import { invalid } from '../../domain-error.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { formatEventId, parseEventId } from './event-id.js';
import { EventIndex } from './event-index.js';
import { fieldsOf } from './index-fields.js';
import { decodeEventLine, encodeEventLine, inferSource } from './line-format.js';
import { planQuery } from './log-query.js';
import type { LogQuery, NewEventRow } from './types.js';

/** Where the lines live: an array in memory, or segment files. */
export interface LineSource {
  /** The lines at these positions (ascending), in the same order. */
  read(positions: readonly number[]): string[];
}

export interface PreparedEvent {
  seq: number;
  row: EventRow;
  line: string;
}

/**
 * What both implementations share: id assignment, the indexes, get and query. An event becomes
 * visible (get, query, lastId) only when `commit` is called, which the file log does once its
 * batch is on disk and always in id order — so a reader never sees an event that a crash could
 * still take back, and a `since_id` cursor never skips an event that shows up later.
 */
export class LogCore {
  readonly index = new EventIndex();
  private nextSeq = 1;

  constructor(
    private readonly clock: Clock,
    private readonly source: LineSource,
    /** Where lines found damaged on reading are reported (the log's `recovery`). */
    private readonly problems: string[] = [],
  ) {}

  /** After loading existing events: ids continue above the highest one seen. */
  continueAfter(seq: number | null): void {
    if (seq !== null && seq >= this.nextSeq) this.nextSeq = seq + 1;
  }

  /** Checks an input, gives it the next id and the time, and renders its line. Not yet visible. */
  prepare(input: NewEventRow): PreparedEvent {
    checkInput(input);
    let content: string | undefined;
    try {
      content = JSON.stringify(input.content ?? null);
    } catch {
      throw invalid('content must be plain JSON (no cycles, no BigInt).', ErrorCode.validationFailed);
    }
    const seq = this.nextSeq++;
    const id = formatEventId(seq);
    const draft: EventRow = {
      id,
      type: input.type,
      agent_id: input.agent_id ?? null,
      session_id: input.session_id ?? null,
      quest_id: input.quest_id ?? null,
      content: JSON.parse(content ?? 'null'),
      created_at: new Date(this.clock.now()).toISOString(),
      causation_id: input.causation_id ?? null,
      correlation_id: input.correlation_id ?? id,
      source: input.source ?? inferSource({ type: input.type, causation_id: input.causation_id ?? null }),
      ...(input.origin ? { origin: input.origin } : {}),
    };
    const line = encodeEventLine(draft);
    return { seq, row: draft, line };
  }

  commit(event: { seq: number; row: EventRow }): number {
    return this.index.add(fieldsOf(event.row, event.seq));
  }

  get(id: string): EventRow | undefined {
    const seq = parseEventId(id);
    const position = seq === null ? -1 : this.index.positionOf(seq);
    if (position < 0) return undefined;
    return this.decode([position])[0];
  }

  query(query: LogQuery): { events: EventRow[]; next_since_id: string | null } {
    const { positions, more } = this.index.select(planQuery(query));
    const events = this.decode(positions);
    // The cursor is the last position looked at, not the last event returned: a damaged line
    // left out of this page must not make the next page start before it again.
    return { events, next_since_id: more ? formatEventId(this.index.seqAt(positions[positions.length - 1]!)) : null };
  }

  /** Start-up checks a line's frame only; its content is checked here, and a damaged one is left out and reported once. */
  private decode(positions: readonly number[]): EventRow[] {
    const lines = this.source.read(positions);
    const rows: EventRow[] = [];
    lines.forEach((line, i) => {
      const row = decodeEventLine(line);
      if (row) {
        rows.push(row);
        return;
      }
      const id = formatEventId(this.index.seqAt(positions[i]!));
      const note = `${id}: left out a line whose content is corrupt`;
      if (!this.problems.includes(note)) this.problems.push(note);
    });
    return rows;
  }

  lastId(): string | null {
    const seq = this.index.lastSeq();
    return seq === null ? null : formatEventId(seq);
  }
}

const optionalId = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.length > 0);

/**
 * The checks every log makes on an append (a 400 for bad input). The type and ids are kept in
 * columns and compared by queries, so they must be text every log can hold (storable-text.ts):
 * the file log could store a NUL, PostgreSQL cannot, and both refuse it alike.
 */
export function checkInput(input: NewEventRow): void {
  if (typeof input?.type !== 'string' || input.type.length === 0)
    throw invalid('An event needs a type.', ErrorCode.validationFailed);
  for (const field of ['agent_id', 'session_id', 'quest_id', 'causation_id', 'correlation_id'] as const) {
    if (!optionalId(input[field]))
      throw invalid(`${field} must be a non-empty string or null.`, ErrorCode.validationFailed);
  }
  for (const field of ['type', 'agent_id', 'session_id', 'quest_id', 'causation_id', 'correlation_id'] as const) {
    const problem = typeof input[field] === 'string' ? storableTextProblem(input[field]) : null;
    if (problem) throw invalid(`${field} ${problem}.`, ErrorCode.validationFailed);
  }
}
