import type pg from 'pg';
import { withTransaction } from '../connect.js';
import type {
  AgentStore,
  ConfiguredEventStore,
  QuestStore,
  RuntimeSessionRecord,
  RuntimeSessionStore,
  TranscriptStore,
} from '../../runtime-types.js';
import type { TranscriptEntry } from '../../../../shared/runtime-records.js';
import { createKeyedQueue } from './keyed-queue.js';
import { deleteDoc, getDoc, listDocs, putDoc, sqlText, updateDoc } from './doc-table.js';
import * as t from './tables.js';

export function createAgentStore(pool: pg.Pool, company: string): AgentStore {
  return {
    get: (id) => getDoc(pool, t.agents, company, id),
    list: () => listDocs(pool, t.agents, company),
    withRole: (role) => listDocs(pool, t.agents, company, { role }),
    create: (agent) => putDoc(pool, t.agents, company, agent),
  };
}

export function createSessionStore(pool: pg.Pool, company: string): RuntimeSessionStore {
  return {
    get: (id) => getDoc(pool, t.sessions, company, id),
    list: (filter = {}) => listDocs(pool, t.sessions, company, filter),
    // The session and its seeded configured events commit together or not at all.
    create: (session, seeded) =>
      withTransaction(pool, async (client) => {
        await putDoc(client, t.sessions, company, session);
        for (const cfg of seeded) await putDoc(client, t.configured, company, cfg);
      }),
    update: (id, change) => updateDoc(pool, t.sessions, company, id, change),
  };
}

export function createTranscriptStore(pool: pg.Pool, company: string): TranscriptStore {
  // One session's appends from this daemon commit in call order (the transcript reads as sent).
  const inOrder = createKeyedQueue();
  return {
    list: async (sessionId) => {
      const { rows } = await pool.query<{ entry: TranscriptEntry }>(
        'SELECT entry FROM svc_rt_messages WHERE company_id = $1 AND session_id = $2 ORDER BY seq',
        [company, sqlText(sessionId)],
      );
      return rows.map(({ entry: { at, from, text } }) => ({ at, from, text }));
    },
    // One statement, so the count and the messages are of one snapshot; found by seq (the primary key).
    tail: async (sessionId, count) => {
      const { rows } = await pool.query<{ total: number; entry: TranscriptEntry | null }>(
        `SELECT s.message_count AS total, m.entry FROM svc_rt_sessions s
         LEFT JOIN svc_rt_messages m ON m.company_id = s.company_id AND m.session_id = s.id AND m.seq >= s.message_count - $3
         WHERE s.company_id = $1 AND s.id = $2 ORDER BY m.seq`,
        [company, sqlText(sessionId), Math.floor(count)],
      );
      const entries = rows.flatMap(({ entry }) =>
        entry ? [{ at: entry.at, from: entry.from, text: entry.text }] : [],
      );
      return { entries, total: rows[0]?.total ?? 0 };
    },
    // The session row is locked while the message takes its seq (the count before this append), so
    // two appends, on one daemon or two, never take the same place and the counters never lose one.
    append: (sessionId, entry, change) =>
      inOrder(sessionId, () =>
        updateDoc(
          pool,
          t.sessions,
          company,
          sessionId,
          (s): RuntimeSessionRecord => ({ ...change(s), message_count: s.message_count + 1 }),
          async (client, before) => {
            const { at, from, text } = entry;
            await client.query(
              'INSERT INTO svc_rt_messages (company_id, session_id, seq, entry) VALUES ($1, $2, $3, $4)',
              [company, sqlText(sessionId), before.message_count, JSON.stringify({ at, from, text })],
            );
          },
        ),
      ),
  };
}

export function createQuestStore(pool: pg.Pool, company: string): QuestStore {
  return {
    get: (id) => getDoc(pool, t.quests, company, id),
    list: (filter = {}) => listDocs(pool, t.quests, company, filter),
    create: (quest) => putDoc(pool, t.quests, company, quest),
    update: (id, change) => updateDoc(pool, t.quests, company, id, change),
  };
}

export function createConfiguredEventStore(pool: pg.Pool, company: string): ConfiguredEventStore {
  return {
    get: (id) => getDoc(pool, t.configured, company, id),
    list: (filter = {}) => listDocs(pool, t.configured, company, filter),
    create: (cfg) => putDoc(pool, t.configured, company, cfg),
    update: (id, change) => updateDoc(pool, t.configured, company, id, change),
    delete: (id) => deleteDoc(pool, t.configured, company, id),
  };
}
