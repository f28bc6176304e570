/**
 * Windows counted across daemons: a window matcher (`count` within `within_ms`, then
 * `cooldown_ms`), loop detection and idea thresholds were counted in each daemon's memory, so events
 * of one Company arriving through two daemons were counted apart. One row per window key holds its
 * recent times and its cooldown; `svc_window_hit` records one event under the row's lock, in one
 * round trip, and says whether it crossed the threshold. `expires_at` is when the row can count
 * nothing any more (its newest time has left the window and its cooldown is over): each hit
 * removes a few such rows of its Company, skipping rows another transaction holds, so a hit never
 * waits on a cleanup and the table keeps only live windows.
 */
export const windowsSchema = `
CREATE TABLE svc_rt_windows (
  company_id text NOT NULL,
  key text NOT NULL,
  times bigint[] NOT NULL DEFAULT '{}',
  cooldown_until bigint NOT NULL DEFAULT 0,
  expires_at bigint NOT NULL,
  PRIMARY KEY (company_id, key)
);
CREATE INDEX svc_rt_windows_expiry ON svc_rt_windows (company_id, expires_at);

CREATE FUNCTION svc_window_hit(p_company text, p_key text, p_now bigint, p_count int, p_within bigint, p_cooldown bigint)
RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  w svc_rt_windows%ROWTYPE;
  kept bigint[];
BEGIN
  DELETE FROM svc_rt_windows WHERE ctid IN (
    SELECT ctid FROM svc_rt_windows WHERE company_id = p_company AND expires_at <= p_now AND key <> p_key
    LIMIT 8 FOR UPDATE SKIP LOCKED);
  INSERT INTO svc_rt_windows (company_id, key, expires_at) VALUES (p_company, p_key, p_now)
    ON CONFLICT (company_id, key) DO NOTHING;
  SELECT * INTO w FROM svc_rt_windows WHERE company_id = p_company AND key = p_key FOR UPDATE;
  IF p_now < w.cooldown_until THEN
    RETURN false;
  END IF;
  kept := ARRAY(SELECT t FROM unnest(w.times) AS t WHERE t > p_now - p_within ORDER BY t) || p_now;
  IF cardinality(kept) >= p_count THEN
    -- No cooldown: nothing to hold back, even an event stamped a moment earlier by another daemon.
    UPDATE svc_rt_windows
      SET times = '{}', cooldown_until = CASE WHEN p_cooldown > 0 THEN p_now + p_cooldown ELSE 0 END,
          expires_at = p_now + p_cooldown
      WHERE company_id = p_company AND key = p_key;
    RETURN true;
  END IF;
  UPDATE svc_rt_windows
    SET times = kept, expires_at = greatest(w.cooldown_until, (SELECT max(t) FROM unnest(kept) AS t) + p_within)
    WHERE company_id = p_company AND key = p_key;
  RETURN false;
END
$fn$;
`;
