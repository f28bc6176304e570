import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { StoreConflict } from '../../types.js';
import type { ChannelStore, DeliveryStore, FiringStore, QuestionStore } from '../../runtime-types.js';
import type { Firing, NotFired } from '../../../../shared/runtime-records.js';
import { deleteDoc, getDoc, listDocs, putDoc, sqlText, type Queryable } from './doc-table.js';
import { createCappedRows } from './capped-rows.js';
import { applyRetryChange } from './retries.js';
import * as t from './tables.js';

export function createFiringStore(pool: pg.Pool, company: string): FiringStore {
  return {
    // One row per dispatch: adding firings never rewrites the ones an event already has.
    // The retries these firings schedule or settle commit with them, or not at all.
    add: async (eventId, fired, notFired = [], retries = {}) => {
      const insert = async (q: Queryable) =>
        q.query('INSERT INTO svc_rt_firings (company_id, event_id, fired, not_fired) VALUES ($1, $2, $3, $4)', [
          company,
          sqlText(eventId),
          JSON.stringify(fired),
          notFired.length > 0 ? JSON.stringify(notFired) : null,
        ]);
      if (!retries.put?.length && !retries.remove?.length) return void (await insert(pool));
      await withTransaction(pool, async (client) => {
        await insert(client);
        await applyRetryChange(client, company, retries);
      });
    },
    of: async (eventId) => {
      const { rows } = await pool.query<{ fired: Firing[] }>(
        'SELECT fired FROM svc_rt_firings WHERE company_id = $1 AND event_id = $2 ORDER BY pos',
        [company, sqlText(eventId)],
      );
      return rows.flatMap((r) => r.fired);
    },
    notFiredOf: async (eventId) => {
      const { rows } = await pool.query<{ not_fired: NotFired[] }>(
        'SELECT not_fired FROM svc_rt_firings WHERE company_id = $1 AND event_id = $2 AND not_fired IS NOT NULL ORDER BY pos',
        [company, sqlText(eventId)],
      );
      return rows.flatMap((r) => r.not_fired);
    },
  };
}

export function createChannelStore(pool: pg.Pool, company: string): ChannelStore {
  return {
    get: (name) => getDoc(pool, t.channels, company, name),
    list: () => listDocs(pool, t.channels, company),
    // ON CONFLICT DO NOTHING: of two creates of one name (on any daemons) exactly one inserts.
    create: async (record) => {
      const { rowCount } = await pool.query(
        'INSERT INTO svc_rt_channels (company_id, name, doc) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [company, sqlText(record.name), JSON.stringify(record)],
      );
      if (!rowCount) throw new StoreConflict('channel_exists', `a channel named '${record.name}' already exists`);
    },
    replace: async (record) => {
      const { rowCount } = await pool.query('UPDATE svc_rt_channels SET doc = $3 WHERE company_id = $1 AND name = $2', [
        company,
        sqlText(record.name),
        JSON.stringify(record),
      ]);
      return (rowCount ?? 0) > 0;
    },
    delete: (name) => deleteDoc(pool, t.channels, company, name),
  };
}

export function createQuestionStore(pool: pg.Pool, company: string): QuestionStore {
  return {
    add: async (record) => {
      await putDoc(pool, t.questions, company, record);
      return (await getDoc(pool, t.questions, company, record.id))!;
    },
    get: (id) => getDoc(pool, t.questions, company, id),
    list: (filter = {}) => listDocs(pool, t.questions, company, filter),
    // Check-and-set under the row lock: of two answers, on one daemon or two, exactly one wins.
    answer: (id, answer, by, atIso) =>
      withTransaction(pool, async (client) => {
        const q = await getDoc(client, t.questions, company, id, true);
        if (!q) return { ok: false, reason: 'not_found' } as const;
        if (q.status === 'answered') return { ok: false, reason: 'already_answered' } as const;
        const record = { ...q, status: 'answered' as const, answer, answered_by: by, answered_at: atIso };
        await putDoc(client, t.questions, company, record);
        return { ok: true, record } as const;
      }),
  };
}

/**
 * Takes a delivery id in one statement (one round trip, its own transaction): a new row, or the
 * id's own row once it is past the retention (seen again as new). Of two daemons seeing one
 * delivery at once exactly one gets a row back. Beside it, up to 100 ids past the retention go, the
 * oldest first on the time index (bounded, as idempotency.ts's REMEMBER: bounded work per write,
 * and a generic plan as cheap as one made for the values); the id itself is left to the upsert (one
 * statement must not delete and update a row).
 */
const FIRST_SEEN = `
WITH expired AS (
  DELETE FROM svc_rt_deliveries WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM svc_rt_deliveries
    WHERE company_id = $1 AND at_ms <= $3::bigint - $4::bigint AND key <> $2
    ORDER BY at_ms LIMIT 100))
)
INSERT INTO svc_rt_deliveries (company_id, key, at_ms) VALUES ($1, $2, $3)
ON CONFLICT (company_id, key) DO UPDATE SET at_ms = EXCLUDED.at_ms, pos = DEFAULT
  WHERE svc_rt_deliveries.at_ms <= $3::bigint - $4::bigint
RETURNING 1`;

/**
 * Delivery ids are kept for `retentionMs` and about `maxIds` of them, oldest forgotten first
 * (capped-rows.ts). The key is bytea (it holds a NUL).
 */
export function createDeliveryStore(
  pool: pg.Pool,
  company: string,
  options: { retentionMs?: number; maxIds?: number } = {},
): DeliveryStore {
  const retentionMs = options.retentionMs ?? 600_000;
  const capped = createCappedRows(pool, { table: 'svc_rt_deliveries', company, max: options.maxIds ?? 50_000 });
  return {
    async firstSeen(key, nowMs) {
      const { rowCount } = await pool.query(FIRST_SEEN, [company, Buffer.from(key, 'utf8'), nowMs, retentionMs]);
      await capped.wrote();
      return (rowCount ?? 0) > 0;
    },
    size: async () => {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM svc_rt_deliveries WHERE company_id = $1',
        [company],
      );
      return Number(rows[0]!.n);
    },
  };
}
