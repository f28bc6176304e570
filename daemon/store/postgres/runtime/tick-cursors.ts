import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { fromSqlText, sqlText } from './doc-table.js';
import type { TickCursor, TickStore, TickUpdate } from '../../runtime-types.js';

type CursorRow = TickCursor & { id: string };
const EPOCH = new Date(0).toISOString();

/**
 * The scheduler's cursors, with the record engine's claim rule: a tick is claimed when it is later
 * than the cursor's last tick and than its baseline. Across daemons the rule runs on locked rows:
 * missing cursors are first inserted (ON CONFLICT DO NOTHING waits for a concurrent insert of the
 * same id to commit), then every cursor of the walk is locked FOR UPDATE in id order (no deadlock
 * between two walks), decided, and written back in the same transaction. So of two daemons walking
 * the same schedule, one claims a tick and the other then sees it claimed; the claim is committed
 * before `commit` resolves, and so before the tick fires.
 */
export function createTickStore(pool: pg.Pool, company: string): TickStore {
  const read = async (
    q: pg.Pool | pg.PoolClient,
    ids: string[] | null,
    lock = false,
  ): Promise<Map<string, CursorRow>> => {
    const { rows } = await q.query<CursorRow>(
      `SELECT id, last_tick, active, baseline FROM svc_rt_tick_cursors WHERE company_id = $1${ids ? ' AND id = ANY($2::text[])' : ''} ORDER BY id COLLATE "C"${lock ? ' FOR UPDATE' : ''}`,
      ids ? [company, ids.map(sqlText)] : [company],
    );
    return new Map(rows.map((r) => [fromSqlText(r.id), { ...r, id: fromSqlText(r.id) }]));
  };
  return {
    get: async (id) => {
      const row = (await read(pool, [id])).get(id);
      return row && cursorOf(row);
    },
    ids: async () => [...(await read(pool, null)).keys()],
    cursors: async () => new Map([...(await read(pool, null))].map(([id, r]) => [id, cursorOf(r)])),
    commit: async (updates) => {
      if (updates.length === 0) return [];
      return withTransaction(pool, async (client) => {
        const firsts = new Map<string, TickUpdate>();
        for (const u of updates) if (!firsts.has(u.id)) firsts.set(u.id, u);
        const fresh = [...firsts.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        await client.query(
          `INSERT INTO svc_rt_tick_cursors (company_id, id, last_tick, active, baseline)
           SELECT $1, id, NULL, active, baseline FROM unnest($2::text[], $3::boolean[], $4::text[]) AS u(id, active, baseline)
           ON CONFLICT DO NOTHING`,
          [company, fresh.map((u) => sqlText(u.id)), fresh.map((u) => u.active), fresh.map((u) => u.baseline ?? EPOCH)],
        );
        const seen = await read(
          client,
          fresh.map((u) => u.id),
          true,
        );
        const claimed: Array<{ id: string; tick: string }> = [];
        for (const u of updates) {
          const before = seen.get(u.id)!;
          const cursor: CursorRow = { ...before, active: u.active, baseline: u.baseline ?? before.baseline };
          if (
            u.tick !== undefined &&
            (cursor.last_tick === null || u.tick > cursor.last_tick) &&
            u.tick > cursor.baseline
          ) {
            cursor.last_tick = u.tick;
            claimed.push({ id: u.id, tick: u.tick });
          }
          seen.set(u.id, cursor);
        }
        const all = [...seen.values()];
        await client.query(
          `UPDATE svc_rt_tick_cursors c SET last_tick = u.last_tick, active = u.active, baseline = u.baseline
           FROM unnest($2::text[], $3::text[], $4::boolean[], $5::text[]) AS u(id, last_tick, active, baseline)
           WHERE c.company_id = $1 AND c.id = u.id`,
          [
            company,
            all.map((c) => sqlText(c.id)),
            all.map((c) => c.last_tick),
            all.map((c) => c.active),
            all.map((c) => c.baseline),
          ],
        );
        return claimed;
      });
    },
    forget: async (ids) => {
      if (ids.length === 0) return;
      await pool.query('DELETE FROM svc_rt_tick_cursors WHERE company_id = $1 AND id = ANY($2::text[])', [
        company,
        ids.map(sqlText),
      ]);
    },
  };
}

const cursorOf = (r: CursorRow): TickCursor => ({ last_tick: r.last_tick, active: r.active, baseline: r.baseline });
