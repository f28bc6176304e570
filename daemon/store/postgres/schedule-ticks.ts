import type pg from 'pg';

export interface TickClaim {
  /** The configured event whose schedule ticked. */
  event_id: string;
  /** The tick's ISO time, as the scheduler names it. */
  tick: string;
}

/**
 * Exactly-once schedule ticks across daemons and restarts: every daemon's scheduler offers the
 * ticks it finds due, one INSERT … ON CONFLICT DO NOTHING records them, and only the rows this call
 * inserted come back: those, and only those, this daemon fires. A tick claimed by another daemon,
 * or by this one before a restart, is never returned again. The claim is committed before the
 * firing (as on the JSON store): a crash in between loses that firing rather than repeating it.
 */
export async function claimTicks(pool: pg.Pool, company: string, claims: readonly TickClaim[]): Promise<TickClaim[]> {
  if (claims.length === 0) return [];
  const { rows } = await pool.query<TickClaim>(
    `INSERT INTO svc_schedule_ticks (company_id, event_id, tick)
     SELECT $1, * FROM unnest($2::text[], $3::text[])
     ON CONFLICT DO NOTHING
     RETURNING event_id, tick`,
    [company, claims.map((c) => c.event_id), claims.map((c) => c.tick)],
  );
  return rows;
}

/** Drops the claims of configured events that were deleted. */
export async function forgetTicks(pool: pg.Pool, company: string, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await pool.query('DELETE FROM svc_schedule_ticks WHERE company_id = $1 AND event_id = ANY($2::text[])', [
    company,
    eventIds,
  ]);
}

/**
 * Drops claims of ticks older than `before` (ISO). Only safe behind the scheduler's catch-up
 * horizon: a tick older than any the scheduler would still offer can never be claimed twice.
 */
export async function pruneTicks(pool: pg.Pool, before: string): Promise<number> {
  const { rowCount } = await pool.query('DELETE FROM svc_schedule_ticks WHERE tick < $1', [before]);
  return rowCount ?? 0;
}
