/**
 * The first schema of team mode. Times the daemon decides (event times, limiter windows) come from
 * the daemon's clock, as on the JSON store; `now()` only stamps bookkeeping columns.
 */
export const initialSchema = `
-- Deployment secrets (JWT key, operator token, mail sealing key, code HMAC key): one row each,
-- created by the first daemon that starts, read by every other one.
CREATE TABLE svc_secrets (
  name text PRIMARY KEY,
  value text NOT NULL CHECK (value <> ''),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One ordered event log per Company. The head row hands out sequence numbers; its row lock is held
-- until the appending transaction commits, so commit order equals sequence order.
CREATE TABLE svc_event_heads (
  company_id text PRIMARY KEY,
  last_seq bigint NOT NULL CHECK (last_seq > 0)
);

CREATE TABLE svc_events (
  company_id text NOT NULL,
  seq bigint NOT NULL CHECK (seq > 0),
  type text NOT NULL CHECK (type <> ''),
  -- The part before the first colon (the "session" of "session:start"); null without one.
  prefix text GENERATED ALWAYS AS (CASE WHEN strpos(type, ':') > 1 THEN left(type, strpos(type, ':') - 1) END) STORED,
  agent_id text,
  session_id text,
  quest_id text,
  causation_id text,
  correlation_id text NOT NULL,
  created_at timestamptz NOT NULL,
  -- json, not jsonb: content comes back exactly as written (key order, duplicate-free text).
  content json NOT NULL,
  PRIMARY KEY (company_id, seq)
);
CREATE INDEX svc_events_by_type ON svc_events (company_id, type, seq);
CREATE INDEX svc_events_by_prefix ON svc_events (company_id, prefix, seq) WHERE prefix IS NOT NULL;
CREATE INDEX svc_events_by_agent ON svc_events (company_id, agent_id, seq) WHERE agent_id IS NOT NULL;
CREATE INDEX svc_events_by_session ON svc_events (company_id, session_id, seq) WHERE session_id IS NOT NULL;
CREATE INDEX svc_events_by_quest ON svc_events (company_id, quest_id, seq) WHERE quest_id IS NOT NULL;
CREATE INDEX svc_events_by_correlation ON svc_events (company_id, correlation_id, seq);
CREATE INDEX svc_events_by_causation ON svc_events (company_id, causation_id, seq) WHERE causation_id IS NOT NULL;
CREATE INDEX svc_events_by_time ON svc_events (company_id, created_at);

-- Rate limits that count across daemons: the attempt times (ms) of one key inside its longest window.
CREATE TABLE svc_rate_hits (
  key text PRIMARY KEY,
  hits bigint[] NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX svc_rate_hits_expiry ON svc_rate_hits (expires_at);

-- Consecutive failures per account and factor, and the lock-out they start.
CREATE TABLE svc_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL CHECK (failures > 0),
  locked_until bigint NOT NULL,
  last_at bigint NOT NULL
);

-- A schedule tick fires once: the daemon that inserts the row fires it, every other one skips it.
CREATE TABLE svc_schedule_ticks (
  company_id text NOT NULL,
  event_id text NOT NULL,
  tick text COLLATE "C" NOT NULL, -- ISO times: byte order is time order
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, event_id, tick)
);
`;
