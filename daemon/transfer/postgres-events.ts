import type pg from 'pg';
import { formatEventId, parseEventId } from '../events/log/event-id.js';
import type { EventRow } from '../runtime/services.js';
import { EVENT_COLUMNS, rowFromStored, type StoredEvent } from '../store/postgres/event-rows.js';

const PAGE = 1000;

/** One Company's events in id order, as the log's rows (ids as the file log writes them). */
export async function* readPgEvents(client: pg.PoolClient, company: string): AsyncGenerator<EventRow> {
  let after = 0;
  for (;;) {
    const { rows } = await client.query<StoredEvent>(
      `SELECT ${EVENT_COLUMNS} FROM svc_events WHERE company_id = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
      [company, after],
    );
    for (const r of rows) yield rowFromStored(r, formatEventId);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}

/**
 * Writes events with their ids (the sequence numbers the ids carry), then `finish` sets the
 * Company's head to the last one, so the next append continues above it exactly as the file log does.
 */
export function createPgEventLoader(client: pg.PoolClient, company: string) {
  let last = 0;
  return {
    async add(row: EventRow): Promise<void> {
      const seq = parseEventId(row.id);
      if (seq === null || seq <= last) throw new Error(`event id ${String(row.id)} is malformed or out of order`);
      last = seq;
      await client.query(
        `INSERT INTO svc_events (company_id, seq, type, agent_id, session_id, quest_id, causation_id, correlation_id, created_at, content)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          company,
          seq,
          row.type,
          row.agent_id ?? null,
          row.session_id ?? null,
          row.quest_id ?? null,
          row.causation_id ?? null,
          row.correlation_id ?? row.id,
          row.created_at,
          JSON.stringify(row.content ?? null),
        ],
      );
    },
    async finish(): Promise<void> {
      if (last > 0)
        await client.query('INSERT INTO svc_event_heads (company_id, last_seq) VALUES ($1, $2)', [company, last]);
    },
  };
}
