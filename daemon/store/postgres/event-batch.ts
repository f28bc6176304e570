import type pg from 'pg';
import { formatEventId } from '../../events/log/event-id.js';
import type { EventRow } from '../../runtime/services.js';
import { withTransaction } from './connect.js';
import { rowOf, type PendingEvent } from './event-rows.js';

export const EVENTS_CHANNEL = 'svc_events';

/**
 * Writes one batch of one Company's appends in one transaction. The upsert on the head row both
 * hands out the batch's sequence numbers and takes that row's lock, held until COMMIT: a second
 * writer (another connection, another daemon) waits on it, so sequence numbers are committed in
 * their own order and a reader can never see seq n+1 before seq n. That is what keeps `since_id`
 * paging exact: a cursor a reader has passed is never overtaken by an event committed later.
 * NOTIFY is sent at commit, in commit order, with the new head, to every listening daemon.
 */
export async function writeEventBatch(pool: pg.Pool, company: string, batch: readonly PendingEvent[]): Promise<EventRow[]> {
  return withTransaction(pool, async (client) => {
    const head = await client.query<{ last_seq: string }>(
      `INSERT INTO svc_event_heads (company_id, last_seq) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET last_seq = svc_event_heads.last_seq + EXCLUDED.last_seq
       RETURNING last_seq`,
      [company, batch.length],
    );
    const last = Number(head.rows[0]!.last_seq);
    const rows = batch.map((p, i) => rowOf(p, formatEventId(last - batch.length + 1 + i)));
    await client.query(
      `INSERT INTO svc_events (company_id, seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::json[])`,
      [
        company,
        rows.map((_, i) => last - batch.length + 1 + i),
        rows.map((r) => r.type),
        rows.map((r) => r.agent_id),
        rows.map((r) => r.session_id),
        rows.map((r) => r.quest_id),
        rows.map((r) => r.causation_id),
        rows.map((r) => r.correlation_id),
        rows.map((r) => r.created_at),
        batch.map((p) => p.content),
      ],
    );
    await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ company, last_id: formatEventId(last) })]);
    return rows;
  });
}

interface Waiting {
  event: PendingEvent;
  resolve: (row: EventRow) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit, as the file log does it: while one batch is being written, new appends queue, and
 * the next transaction takes all of them. One lock hold and one commit then serve many appends,
 * which matters because the head row lets only one transaction per Company through at a time.
 */
export class EventBatcher {
  private queue: Waiting[] = [];
  private writing: Promise<void> | null = null;

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
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const rows = await writeEventBatch(this.pool, this.company, batch.map((w) => w.event));
        batch.forEach((w, i) => w.resolve(rows[i]!));
      } catch (err) {
        // The transaction rolled back: none of the batch is stored, and each caller hears so.
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = null;
  }
}
