/**
 * Pending retries of failed tool calls, one row per call still to settle (a settled one
 * is deleted in the transaction that records its last firing). `state` and `lease_until_ms` are
 * columns, not in `doc`, so a claim is one conditional UPDATE: of several daemons exactly one
 * moves a row from `pending` to `running` and runs that attempt.
 */
export const retriesSchema = `
CREATE TABLE svc_rt_retries (
  company_id text NOT NULL,
  id text NOT NULL,
  event_id text NOT NULL,
  configured_event_id text NOT NULL,
  attempt integer NOT NULL CHECK (attempt >= 1),
  state text NOT NULL CHECK (state IN ('pending', 'running')),
  due_ms bigint NOT NULL,
  lease_until_ms bigint,
  doc json NOT NULL, -- the rest of the record: the call, the policy, the last delay
  PRIMARY KEY (company_id, id)
);
CREATE INDEX svc_rt_retries_by_due ON svc_rt_retries (company_id, due_ms);
CREATE INDEX svc_rt_retries_by_configured ON svc_rt_retries (company_id, configured_event_id);
CREATE INDEX svc_rt_retries_by_event ON svc_rt_retries (company_id, event_id);
`;
