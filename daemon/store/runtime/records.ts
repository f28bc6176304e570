import type { Space } from '../engine/types.js';
import type {
  AgentStore,
  ConfiguredEventStore,
  QuestStore,
  RecordChange,
  RuntimeSessionStore,
  RuntimeSessionRecord,
  TranscriptStore,
} from '../runtime-types.js';
import { selectBy, type RuntimeTables } from './tables.js';
import type { Table, Tx } from '../engine/types.js';

/** Applies `change` to the record under `id` in one write: the read and the put are one atomic step. */
function updateOne<T extends object>(
  space: Space,
  table: Table<T>,
  id: string,
  change: RecordChange<T>,
  also?: (tx: Tx, next: T) => void,
): Promise<T | undefined> {
  return space.write((tx) => {
    const current = table.get(id);
    if (!current) return undefined;
    const next = change(current);
    tx.put(table, next);
    also?.(tx, next);
    return next;
  });
}

export function createAgentStore(space: Space, t: RuntimeTables): AgentStore {
  return {
    get: async (id) => t.agents.get(id),
    list: async () => [...t.agents.all()],
    withRole: async (role) => t.agents.lookup('role', role),
    create: (agent) => space.write((tx) => tx.put(t.agents, agent)),
  };
}

export function createSessionStore(space: Space, t: RuntimeTables): RuntimeSessionStore {
  return {
    get: async (id) => t.sessions.get(id),
    list: async (filter = {}) =>
      selectBy(t.sessions, filter, { gateway_channel_id: 'channel', agent_id: 'agent', status: 'status' }),
    create: (session, seeded) =>
      space.write((tx) => {
        tx.put(t.sessions, session);
        for (const cfg of seeded) tx.put(t.configured, cfg);
      }),
    update: (id, change) => updateOne(space, t.sessions, id, change),
  };
}

export function createTranscriptStore(space: Space, t: RuntimeTables): TranscriptStore {
  return {
    list: async (sessionId) =>
      t.messages.lookup('session', sessionId).map(({ at, from, text }) => ({ at, from, text })),
    tail: async (sessionId, count) => {
      // Message ids are `<session>:<seq>`, so the last ones are found by id, whatever came before.
      const total = t.sessions.get(sessionId)?.message_count ?? 0;
      const entries = [];
      for (let seq = Math.max(0, total - count); seq < total; seq++) {
        const m = t.messages.get(`${sessionId}:${seq}`);
        if (m) entries.push({ at: m.at, from: m.from, text: m.text });
      }
      return { entries, total };
    },
    append: (sessionId, entry, change) =>
      updateOne(
        space,
        t.sessions,
        sessionId,
        (s): RuntimeSessionRecord => ({ ...change(s), message_count: s.message_count + 1 }),
        (tx) => {
          // The message count is read in the same write, so two appends never take the same seq.
          const seq = t.sessions.get(sessionId)!.message_count;
          tx.put(t.messages, {
            id: `${sessionId}:${seq}`,
            session_id: sessionId,
            seq,
            at: entry.at,
            from: entry.from,
            text: entry.text,
          });
        },
      ),
  };
}

export function createQuestStore(space: Space, t: RuntimeTables): QuestStore {
  return {
    get: async (id) => t.quests.get(id),
    list: async (filter = {}) =>
      selectBy(t.quests, filter, { session_id: 'session', agent_id: 'agent', status: 'status' }),
    create: (quest) => space.write((tx) => tx.put(t.quests, quest)),
    update: (id, change) => updateOne(space, t.quests, id, change),
  };
}

export function createConfiguredEventStore(space: Space, t: RuntimeTables): ConfiguredEventStore {
  return {
    get: async (id) => t.configured.get(id),
    list: async (filter = {}) =>
      selectBy(t.configured, filter, {
        session_id: 'session',
        quest_id: 'quest',
        agent_id: 'agent',
        type: 'type',
        prefix: 'prefix',
      }),
    create: (cfg) => space.write((tx) => tx.put(t.configured, cfg)),
    update: (id, change) => updateOne(space, t.configured, id, change),
    delete: (id) =>
      space.write((tx) => {
        if (!t.configured.get(id)) return false;
        tx.remove(t.configured, id);
        return true;
      }),
  };
}
