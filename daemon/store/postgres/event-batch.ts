import type pg from 'pg';
import { formatEventId } from '../event-log/event-id.js';
import type { EventRow } from '../../../shared/runtime-records.js';
import { rowOf, type PendingEvent } from './event-rows.js';

export const EVENTS_CHANNEL = 'svc_events';

/**
 * Writes one batch of one Company's appends in ONE statement (one round trip, its own transaction).
 * The upsert on the head row both hands out the batch's sequence numbers and takes that row's
 * lock, held until the statement commits: a second writer (another connection, another daemon)
 * waits on it, so sequence numbers are committed in their own order and a reader can never see
 * seq n+1 before seq n. That keeps `since_id` paging exact: a cursor a reader has passed is never
 * overtaken by an event committed later. pg_notify is delivered at commit, in commit order, with
 * the new head, to every listening daemon. (Data-modifying WITH parts always run exactly once.)
 */
const WRITE_BATCH = `
WITH head AS (
  INSERT INTO svc_event_heads (company_id, last_seq) VALUES ($1::text, $2::bigint)
  ON CONFLICT (company_id) DO UPDATE SET last_seq = svc_event_heads.last_seq + EXCLUDED.last_seq
  RETURNING last_seq
), batch AS (
  SELECT (SELECT last_seq FROM head) - $2::bigint + n AS seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content, source, origin
  FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::json[], $12::text[], $13::json[])
    WITH ORDINALITY AS u(type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content, source, origin, n)
), stored AS (
  INSERT INTO svc_events (company_id, seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content, source, origin)
  SELECT $1::text, seq, type, agent_id, session_id, quest_id, causation_id,
         COALESCE(correlation_id, 'evt_' || lpad(seq::text, 16, '0')), created_at, content, source, origin
  FROM batch
)
SELECT last_seq, pg_notify($11::text, json_build_object('company', $1::text, 'last_id', 'evt_' || lpad(last_seq::text, 16, '0'))::text)
FROM head`;

async function writeEventBatch(
  pool: pg.Pool,
  company: string,
  batch: readonly PendingEvent[],
): Promise<{ rows: EventRow[]; lastSeq: number }> {
  const column = <K extends keyof PendingEvent>(key: K) => batch.map((p) => p[key]);
  const { rows } = await pool.query<{ last_seq: string }>(WRITE_BATCH, [
    company,
    batch.length,
    column('type'),
    column('agent_id'),
    column('session_id'),
    column('quest_id'),
    column('causation_id'),
    column('correlation_id'),
    column('created_at'),
    column('content'),
    EVENTS_CHANNEL,
    column('source'),
    column('origin'),
  ]);
  const lastSeq = Number(rows[0]!.last_seq);
  const first = lastSeq - batch.length + 1;
  // The same ids and default correlation the statement stored (formatEventId pads to 16 digits too).
  return { rows: batch.map((p, i) => rowOf(p, formatEventId(first + i))), lastSeq };
}

interface Waiting {
  event: PendingEvent;
  resolve: (row: EventRow) => void;
  reject: (err: unknown) => void;
}

/** The longest a batch waits for more appends while another daemon writes to the same log. */
const MAX_WINDOW_MS = 5;

/**
 * Group commit, as the file log does it: while one batch is being written, new appends queue, and
 * the next transaction takes all of them. One lock hold and one commit then serve many appends,
 * which matters because the head row lets only one transaction per Company through at a time.
 *
 * Each daemon batches only its own appends. While another daemon writes to the same log (seen
 * when a batch's ids do not follow this daemon's previous batch), a batch that follows another
 * in one go waits half the last batch's round trip (at most MAX_WINDOW_MS) before it takes the
 * queue: sent at once it would mostly wait for the other daemon's commit on the head row anyway,
 * and meanwhile more appends join it, so two daemons commit fewer, larger batches. With one
 * writer, or one append at a time, there is no wait.
 */
export class EventBatcher {
  private queue: Waiting[] = [];
  private writing: Promise<void> | null = null;
  /** The head this daemon's last batch left (null: none yet, or it failed). */
  private head: number | null = null;
  /** How long the next batch waits before it takes the queue (ms; 0 while no other daemon writes). */
  private window = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly company: string,
    /** Caps one transaction (and its parameter arrays). */
    private readonly maxBatch = 500,
  ) {}

  add(event: PendingEvent): Promise<EventRow> {
    return new Promise<EventRow>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Resolves once every append queued so far is written (or has failed). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    // Let appends made in the same tick join the first batch.
    await Promise.resolve();
    // Only a batch that follows another in one go waits (appends queued while one was written): an
    // append to an idle batcher is written at once, so a lone caller never waits.
    for (let next = false; this.queue.length > 0; next = true) {
      if (next && this.window > 0) await new Promise((resolve) => setTimeout(resolve, this.window));
      const batch = this.queue.splice(0, this.maxBatch);
      const started = performance.now();
      try {
        const { rows, lastSeq } = await writeEventBatch(
          this.pool,
          this.company,
          batch.map((w) => w.event),
        );
        // Another daemon committed between this daemon's last two batches: the log is shared.
        const shared = this.head !== null && lastSeq - batch.length !== this.head;
        this.window = shared ? Math.min(MAX_WINDOW_MS, (performance.now() - started) / 2) : 0;
        this.head = lastSeq;
        batch.forEach((w, i) => {
          w.resolve(rows[i]!);
        });
      } catch (err) {
        this.head = null;
        this.window = 0;
        // The transaction rolled back: none of the batch is stored, and each caller hears so.
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = null;
  }
}
