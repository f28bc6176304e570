/**
 * The per-Company stores of team mode (agents, sessions, transcripts, quests, configured events,
 * firings, tick cursors, channels, questions, webhook deliveries): one schema for every Company,
 * each row under its `company_id`, every lookup an index that starts with it. Versions from 100 up
 * belong to the per-Company side, so they never collide with the account side's numbering.
 *
 * Records whose fields are free text a user typed (a title, a message, a question, a tool call)
 * keep the whole record in `doc json`: json, not jsonb or text columns, because PostgreSQL text
 * cannot hold a NUL character and a user can send one; the json type keeps `\u0000` escaped, and
 * keeps the record exactly as written. The fields a lookup uses are copied into plain columns in
 * the same statement, and `pos` (set once, at the first insert) keeps lists oldest first however a
 * record changes later, as the record engine's lookups do.
 */
export const runtimeSchema = `
CREATE TABLE svc_rt_agents (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  role text,
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_agents_order ON svc_rt_agents (company_id, pos);
CREATE INDEX svc_rt_agents_by_role ON svc_rt_agents (company_id, role, pos);

-- A session's transcript is in svc_rt_messages; message_count is the next message's seq.
CREATE TABLE svc_rt_sessions (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  agent_id text NOT NULL,
  status text NOT NULL,
  gateway_channel_id text,
  message_count integer NOT NULL CHECK (message_count >= 0),
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_sessions_order ON svc_rt_sessions (company_id, pos);
CREATE INDEX svc_rt_sessions_by_agent ON svc_rt_sessions (company_id, agent_id, pos);
CREATE INDEX svc_rt_sessions_by_status ON svc_rt_sessions (company_id, status, pos);
CREATE INDEX svc_rt_sessions_by_channel ON svc_rt_sessions (company_id, gateway_channel_id, pos) WHERE gateway_channel_id IS NOT NULL;

-- One row per message: appending costs one row however long the transcript.
CREATE TABLE svc_rt_messages (
  company_id text NOT NULL,
  session_id text NOT NULL,
  seq integer NOT NULL CHECK (seq >= 0),
  entry json NOT NULL, -- {at, from, text}
  PRIMARY KEY (company_id, session_id, seq)
);

CREATE TABLE svc_rt_quests (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  status text NOT NULL,
  agent_id text,
  session_id text,
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_quests_order ON svc_rt_quests (company_id, pos);
CREATE INDEX svc_rt_quests_by_status ON svc_rt_quests (company_id, status, pos);
CREATE INDEX svc_rt_quests_by_agent ON svc_rt_quests (company_id, agent_id, pos) WHERE agent_id IS NOT NULL;
CREATE INDEX svc_rt_quests_by_session ON svc_rt_quests (company_id, session_id, pos) WHERE session_id IS NOT NULL;

-- prefix: the pattern before its first colon ('' without one), as shared/patterns.ts prefixOf says.
CREATE TABLE svc_rt_configured_events (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL,
  prefix text NOT NULL,
  agent_id text,
  session_id text,
  quest_id text,
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_configured_order ON svc_rt_configured_events (company_id, pos);
CREATE INDEX svc_rt_configured_by_type ON svc_rt_configured_events (company_id, type, pos);
CREATE INDEX svc_rt_configured_by_prefix ON svc_rt_configured_events (company_id, prefix, pos);
CREATE INDEX svc_rt_configured_by_agent ON svc_rt_configured_events (company_id, agent_id, pos) WHERE agent_id IS NOT NULL;
CREATE INDEX svc_rt_configured_by_session ON svc_rt_configured_events (company_id, session_id, pos) WHERE session_id IS NOT NULL;
CREATE INDEX svc_rt_configured_by_quest ON svc_rt_configured_events (company_id, quest_id, pos) WHERE quest_id IS NOT NULL;

-- One row per dispatch of an event: adding firings never rewrites earlier ones.
CREATE TABLE svc_rt_firings (
  company_id text NOT NULL,
  event_id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  fired json NOT NULL,
  not_fired json, -- the configured events considered that did not fire, and why (trace); null: none
  PRIMARY KEY (company_id, event_id, pos)
);

-- The scheduler's cursor per scheduled event; a claim moves last_tick forward under a row lock.
CREATE TABLE svc_rt_tick_cursors (
  company_id text NOT NULL,
  id text NOT NULL,
  last_tick text COLLATE "C", -- ISO times: byte order is time order
  active boolean NOT NULL,
  baseline text COLLATE "C" NOT NULL,
  PRIMARY KEY (company_id, id)
);

-- Webhook channels; the secrets are sealed by the daemon before they reach the database.
CREATE TABLE svc_rt_channels (
  company_id text NOT NULL,
  name text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  doc json NOT NULL,
  PRIMARY KEY (company_id, name)
);
CREATE INDEX svc_rt_channels_order ON svc_rt_channels (company_id, pos);

CREATE TABLE svc_rt_questions (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  status text NOT NULL CHECK (status IN ('open', 'answered')),
  agent_id text NOT NULL,
  session_id text,
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_questions_order ON svc_rt_questions (company_id, pos);
CREATE INDEX svc_rt_questions_by_status ON svc_rt_questions (company_id, status, pos);
CREATE INDEX svc_rt_questions_by_agent ON svc_rt_questions (company_id, agent_id, pos);
CREATE INDEX svc_rt_questions_by_session ON svc_rt_questions (company_id, session_id, pos) WHERE session_id IS NOT NULL;

-- Webhook delivery ids seen lately. The key is bytea: it joins channel and delivery id with a NUL.
CREATE TABLE svc_rt_deliveries (
  company_id text NOT NULL,
  key bytea NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  at_ms bigint NOT NULL,
  PRIMARY KEY (company_id, key)
);
CREATE INDEX svc_rt_deliveries_order ON svc_rt_deliveries (company_id, pos);
CREATE INDEX svc_rt_deliveries_by_time ON svc_rt_deliveries (company_id, at_ms);

-- Answers of idempotent requests (24 h, CONTRACT §8); the key is bytea: scope and key joined by a NUL.
CREATE TABLE svc_rt_idempotency (
  company_id text NOT NULL,
  key bytea NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  at_ms bigint NOT NULL,
  doc json NOT NULL, -- {fingerprint, answer}
  PRIMARY KEY (company_id, key)
);
CREATE INDEX svc_rt_idempotency_order ON svc_rt_idempotency (company_id, pos);
CREATE INDEX svc_rt_idempotency_by_time ON svc_rt_idempotency (company_id, at_ms);
`;
