/**
 * Flow control of configured events, decided in the database so that every daemon of a team
 * decides against the same state. Throttle windows live in `svc_rt_windows` (migration 103: the
 * same keys, expiry and sweep) and are counted by `svc_throttle_admit` under the row's lock.
 * Concurrency slots are rows of `svc_rt_flow_slots`; `svc_flow_slot_claim` counts and takes one
 * under a transaction-scoped advisory lock on the key, so of two daemons exactly one gets the last
 * slot. Pending debounces are one row per key; `svc_debounce_push` replaces its event under the
 * row's lock and answers the one it replaced, and due rows are taken with DELETE … SKIP LOCKED, so
 * each fires on one daemon.
 */
export const flowControlSchema = `
CREATE FUNCTION svc_throttle_admit(p_company text, p_key text, p_now bigint, p_limit int, p_period bigint)
RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  w svc_rt_windows%ROWTYPE;
  kept bigint[];
BEGIN
  INSERT INTO svc_rt_windows (company_id, key, expires_at) VALUES (p_company, p_key, p_now)
    ON CONFLICT (company_id, key) DO NOTHING;
  SELECT * INTO w FROM svc_rt_windows WHERE company_id = p_company AND key = p_key FOR UPDATE;
  kept := ARRAY(SELECT t FROM unnest(w.times) AS t WHERE t > p_now - p_period ORDER BY t);
  IF cardinality(kept) >= p_limit THEN
    UPDATE svc_rt_windows SET times = kept WHERE company_id = p_company AND key = p_key;
    RETURN false;
  END IF;
  UPDATE svc_rt_windows SET times = kept || p_now, expires_at = p_now + p_period
    WHERE company_id = p_company AND key = p_key;
  RETURN true;
END
$fn$;

CREATE TABLE svc_rt_flow_slots (
  company_id text NOT NULL,
  key text NOT NULL,
  holder text NOT NULL,
  quest_ids text[],
  taken_ms bigint NOT NULL,
  PRIMARY KEY (company_id, key, holder)
);

CREATE FUNCTION svc_flow_slot_claim(p_company text, p_key text, p_holder text, p_limit int, p_now bigint)
RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('svc_flow_slot|' || p_company || '|' || p_key, 0));
  IF EXISTS (SELECT 1 FROM svc_rt_flow_slots WHERE company_id = p_company AND key = p_key AND holder = p_holder) THEN
    RETURN true;
  END IF;
  IF (SELECT count(*) FROM svc_rt_flow_slots WHERE company_id = p_company AND key = p_key) >= p_limit THEN
    RETURN false;
  END IF;
  INSERT INTO svc_rt_flow_slots (company_id, key, holder, taken_ms) VALUES (p_company, p_key, p_holder, p_now);
  RETURN true;
END
$fn$;

CREATE TABLE svc_rt_debounces (
  company_id text NOT NULL,
  key text NOT NULL,
  configured_event_id text NOT NULL,
  event_id text NOT NULL,
  first_ms bigint NOT NULL,
  due_ms bigint NOT NULL,
  PRIMARY KEY (company_id, key)
);
CREATE INDEX svc_rt_debounces_due ON svc_rt_debounces (company_id, due_ms);

CREATE FUNCTION svc_debounce_push(p_company text, p_key text, p_cfg text, p_event text, p_now bigint, p_period bigint, p_max_wait bigint)
RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  d svc_rt_debounces%ROWTYPE;
BEGIN
  INSERT INTO svc_rt_debounces (company_id, key, configured_event_id, event_id, first_ms, due_ms)
    VALUES (p_company, p_key, p_cfg, p_event, p_now,
            CASE WHEN p_max_wait IS NULL THEN p_now + p_period ELSE least(p_now + p_period, p_now + p_max_wait) END)
    ON CONFLICT (company_id, key) DO NOTHING;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  SELECT * INTO d FROM svc_rt_debounces WHERE company_id = p_company AND key = p_key FOR UPDATE;
  UPDATE svc_rt_debounces
    SET event_id = p_event, configured_event_id = p_cfg,
        due_ms = CASE WHEN p_max_wait IS NULL THEN p_now + p_period ELSE least(p_now + p_period, d.first_ms + p_max_wait) END
    WHERE company_id = p_company AND key = p_key;
  RETURN d.event_id;
END
$fn$;
`;
