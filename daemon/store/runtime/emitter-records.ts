import type { Space } from '../engine/types.js';
import { StoreConflict } from '../types.js';
import type {
  ChannelStore,
  DeliveryStore,
  FiringStore,
  QuestionStore,
  TickCursor,
  TickStore,
} from '../runtime-types.js';
import { selectBy, type RuntimeTables, type TickRecord } from './tables.js';

export function createFiringStore(space: Space, t: RuntimeTables): FiringStore {
  return {
    // One record per dispatch: adding firings never rewrites the ones an event already has.
    // The retries these firings schedule or settle are in the same write: both survive a crash, or neither.
    add: (eventId, fired, notFired = [], retries = {}) =>
      space.write((tx) => {
        tx.put(t.firings, {
          id: `${eventId}:${t.firings.count('event', eventId)}`,
          event_id: eventId,
          fired,
          ...(notFired.length > 0 && { not_fired: notFired }),
        });
        for (const id of retries.remove ?? []) tx.remove(t.retries, id);
        for (const r of retries.put ?? []) tx.put(t.retries, r);
      }),
    of: async (eventId) => t.firings.lookup('event', eventId).flatMap((r) => r.fired),
    notFiredOf: async (eventId) => t.firings.lookup('event', eventId).flatMap((r) => r.not_fired ?? []),
  };
}

/**
 * The check-and-set of a claim runs inside one write, so of two walks racing for the same tick
 * exactly one claims it; the claim is durable before `commit` resolves, and so before the tick
 * fires: a crash right after a claim loses that one firing rather than repeating it.
 */
export function createTickStore(space: Space, t: RuntimeTables): TickStore {
  return {
    get: async (id) => {
      const r = t.ticks.get(id);
      return r && cursorOf(r);
    },
    ids: async () => [...t.ticks.all()].map((r) => r.id),
    cursors: async () => new Map([...t.ticks.all()].map((r) => [r.id, cursorOf(r)])),
    commit: async (updates) => {
      if (updates.length === 0) return [];
      return space.write((tx) => {
        // Reads inside a write see the state before it: later updates of one id build on `seen`.
        const seen = new Map<string, TickRecord>();
        const claimed: Array<{ id: string; tick: string }> = [];
        for (const u of updates) {
          const before = seen.get(u.id) ??
            t.ticks.get(u.id) ?? {
              id: u.id,
              last_tick: null,
              active: u.active,
              baseline: u.baseline ?? new Date(0).toISOString(),
            };
          const cursor: TickRecord = { ...before, active: u.active, baseline: u.baseline ?? before.baseline };
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
        for (const cursor of seen.values()) tx.put(t.ticks, cursor);
        return claimed;
      });
    },
    forget: async (ids) => {
      if (ids.length === 0) return;
      await space.write((tx) =>
        ids.forEach((id) => {
          tx.remove(t.ticks, id);
        }),
      );
    },
  };
}

const cursorOf = (r: TickRecord): TickCursor => ({ last_tick: r.last_tick, active: r.active, baseline: r.baseline });

export function createChannelStore(space: Space, t: RuntimeTables): ChannelStore {
  return {
    get: async (name) => t.channels.get(name),
    list: async () => [...t.channels.all()],
    create: (record) =>
      space.write((tx) => {
        // Checked inside the write: two concurrent creates of one name cannot both succeed.
        if (t.channels.get(record.name))
          throw new StoreConflict('channel_exists', `a channel named '${record.name}' already exists`);
        tx.put(t.channels, record);
      }),
    replace: (record) =>
      space.write((tx) => {
        if (!t.channels.get(record.name)) return false;
        tx.put(t.channels, record);
        return true;
      }),
    delete: (name) =>
      space.write((tx) => {
        if (!t.channels.get(name)) return false;
        tx.remove(t.channels, name);
        return true;
      }),
  };
}

export function createQuestionStore(space: Space, t: RuntimeTables): QuestionStore {
  return {
    add: async (record) => {
      await space.write((tx) => tx.put(t.questions, record));
      return t.questions.get(record.id)!;
    },
    get: async (id) => t.questions.get(id),
    list: async (filter = {}) =>
      selectBy(t.questions, filter, { session_id: 'session', agent_id: 'agent', status: 'status' }),
    answer: (id, answer, by, atIso) =>
      space.write((tx) => {
        // Check-and-set in one write: the agent resumes once, with one answer.
        const q = t.questions.get(id);
        if (!q) return { ok: false, reason: 'not_found' } as const;
        if (q.status === 'answered') return { ok: false, reason: 'already_answered' } as const;
        const record = { ...q, status: 'answered' as const, answer, answered_by: by, answered_at: atIso };
        tx.put(t.questions, record);
        return { ok: true, record } as const;
      }),
  };
}

/**
 * Delivery ids are kept for `retentionMs` (a signature is only accepted within its timestamp
 * tolerance, so an id needs remembering no longer) and at most `maxIds` of them, oldest forgotten
 * first. Persisted, so a delivery replayed right after a restart is still refused.
 */
export function createDeliveryStore(
  space: Space,
  t: RuntimeTables,
  options: { retentionMs?: number; maxIds?: number } = {},
): DeliveryStore {
  const retentionMs = options.retentionMs ?? 600_000;
  const maxIds = options.maxIds ?? 50_000;
  return {
    firstSeen: (key, nowMs) =>
      space.write((tx) => {
        // A duplicate adds nothing, so it makes no room either: the oldest id stays remembered.
        const seen = t.deliveries.get(key);
        if (seen && seen.at_ms > nowMs - retentionMs) return false;
        // The table iterates in arrival order: forgetting stops at the first id still kept.
        let size = t.deliveries.size;
        for (const d of t.deliveries.all()) {
          if (d.at_ms > nowMs - retentionMs && size < maxIds) break;
          tx.remove(t.deliveries, d.id);
          size--;
        }
        // A remove and a put of the same id in one write: the put wins (an expired id seen again).
        tx.put(t.deliveries, { id: key, at_ms: nowMs });
        return true;
      }),
    size: async () => t.deliveries.size,
  };
}
