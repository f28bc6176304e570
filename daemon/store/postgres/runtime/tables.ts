import type { ChannelRecord } from '../../runtime-types.js';
import type { Agent, ConfiguredEvent, Quest } from '../../../../shared/runtime-records.js';
import { prefixOf } from '../../../../shared/patterns.js';
import type { QuestionRecord, RuntimeSessionRecord } from '../../runtime-types.js';
import type { DocTable } from './doc-table.js';

/** The doc tables of migration 100 (see 100-runtime.ts for the schema and why records are json). */
const byId = <T extends { id: string }>(
  name: string,
  columns: DocTable<T>['columns'],
  filters: Record<string, string>,
): DocTable<T> => ({
  name,
  key: 'id',
  keyOf: (r) => r.id,
  columns,
  filters,
});

export const agents = byId<Agent>('svc_rt_agents', (a) => ({ role: a.role }), { role: 'role' });

export const sessions = byId<RuntimeSessionRecord>(
  'svc_rt_sessions',
  (s) => ({
    agent_id: s.agent_id,
    status: s.status,
    gateway_channel_id: s.gateway_channel_id,
    message_count: s.message_count,
  }),
  { agent_id: 'agent_id', status: 'status', gateway_channel_id: 'gateway_channel_id' },
);

export const quests = byId<Quest>(
  'svc_rt_quests',
  (q) => ({ status: q.status, agent_id: q.agent_id, session_id: q.session_id }),
  {
    status: 'status',
    agent_id: 'agent_id',
    session_id: 'session_id',
  },
);

export const configured = byId<ConfiguredEvent>(
  'svc_rt_configured_events',
  (c) => ({
    type: c.type,
    prefix: prefixOf(c.type),
    agent_id: c.agent_id,
    session_id: c.session_id,
    quest_id: c.quest_id,
  }),
  { type: 'type', prefix: 'prefix', agent_id: 'agent_id', session_id: 'session_id', quest_id: 'quest_id' },
);

export const questions = byId<QuestionRecord>(
  'svc_rt_questions',
  (q) => ({ status: q.status, agent_id: q.agent_id, session_id: q.session_id }),
  {
    status: 'status',
    agent_id: 'agent_id',
    session_id: 'session_id',
  },
);

export const channels: DocTable<ChannelRecord> = {
  name: 'svc_rt_channels',
  key: 'name',
  keyOf: (c) => c.name,
  columns: () => ({}),
  filters: {},
};
