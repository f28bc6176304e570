import { join } from 'node:path';
import { Doc } from './doc.js';
import type { TickCursor, TickStore } from './types.js';

export interface TicksData {
  cursors: Record<string, TickCursor>;
}

const ticksDefaults = (): TicksData => ({ cursors: {} });

/** The tick cursors of one Company, in `<company data dir>/schedule-ticks.json`. */
export async function openFileTickStore(companyDir: string): Promise<TickStore> {
  return createTickStore(await Doc.file(join(companyDir, 'schedule-ticks.json'), ticksDefaults()));
}

export async function createMemoryTickStore(): Promise<TickStore> {
  return createTickStore(await Doc.memory(ticksDefaults()));
}

/**
 * The check-and-set of a claim runs inside one synchronous `doc.update`, so of two walks racing for
 * the same tick exactly one claims it; the claim is on disk before `commit` resolves, and so before
 * the tick fires: a crash right after a claim loses that one firing rather than repeating it.
 */
export function createTickStore(doc: Doc<TicksData>): TickStore {
  return {
    // The live row, read-only by type: the scheduler reads 10 000 of these per walk, so no copy.
    get: (id) => doc.data.cursors[id],
    ids: () => Object.keys(doc.data.cursors),
    commit: async (updates) => {
      if (updates.length === 0) return [];
      return doc.update((data) => {
        const claimed: Array<{ id: string; tick: string }> = [];
        for (const u of updates) {
          const cursor = (data.cursors[u.id] ??= { last_tick: null, active: u.active, baseline: u.baseline ?? new Date(0).toISOString() });
          cursor.active = u.active;
          if (u.baseline !== undefined) cursor.baseline = u.baseline;
          if (u.tick === undefined) continue;
          if (cursor.last_tick !== null && u.tick <= cursor.last_tick) continue;
          if (u.tick <= cursor.baseline) continue;
          cursor.last_tick = u.tick;
          claimed.push({ id: u.id, tick: u.tick });
        }
        return claimed;
      });
    },
    forget: async (ids) => {
      if (ids.length === 0) return;
      await doc.update((data) => {
        for (const id of ids) delete data.cursors[id];
      });
    },
  };
}
