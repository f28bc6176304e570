/**
 * Failures kept for replay: one row per tool call of a firing that failed for good. `replayed_at`
 * is a column of its own so that taking a failure for a replay is one conditional update (of two
 * daemons replaying it, one takes it). Replays are events of their own source, `replay`.
 */
export const failuresSchema = `
CREATE TABLE svc_rt_failures (
  company_id text NOT NULL,
  id text NOT NULL,
  pos bigint GENERATED ALWAYS AS IDENTITY,
  configured_event_id text NOT NULL,
  replayed_at text,
  doc json NOT NULL,
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_failures_order ON svc_rt_failures (company_id, pos);
CREATE INDEX svc_rt_failures_by_configured ON svc_rt_failures (company_id, configured_event_id, pos);

ALTER TABLE svc_events DROP CONSTRAINT svc_events_source_check;
ALTER TABLE svc_events ADD CONSTRAINT svc_events_source_check
  CHECK (source IS NULL OR source IN ('emitter', 'schedule', 'webhook', 'tool_call', 'manual', 'replay'));
`;
