/**
 * Attempts in flight under a failure ceiling, seen by every daemon. A ceiling of 10
 * counts stored failures, and each attempt in flight holds a place until its outcome is counted:
 * while failures plus holds would reach the ceiling, a new attempt waits. The holds were each
 * daemon's own memory, so a parallel burst split over two daemons could finish a few more tries than
 * the ceiling before the lock-out landed. `svc_hold_attempt` decides and takes a hold in one round
 * trip, one key at a time across the deployment (an advisory lock on the key; the class number is
 * TURNS.failureHold in accounts/rows.ts); a hold lasts until released, or until its lease ends if
 * its daemon died, and each call removes a few such leftovers of any key.
 */
export const failureHoldsSchema = `
CREATE TABLE svc_failure_holds (
  key text NOT NULL,
  hold text NOT NULL,
  until_ms bigint NOT NULL,
  PRIMARY KEY (key, hold)
);
CREATE INDEX svc_failure_holds_expiry ON svc_failure_holds (until_ms);

CREATE FUNCTION svc_hold_attempt(p_key text, p_hold text, p_now bigint, p_max int, p_lease bigint)
RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  live int;
  counted int;
  lock_end bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(7566950, hashtext(p_key));
  DELETE FROM svc_failure_holds WHERE ctid IN (
    SELECT ctid FROM svc_failure_holds WHERE until_ms <= p_now AND key <> p_key LIMIT 8 FOR UPDATE SKIP LOCKED);
  DELETE FROM svc_failure_holds WHERE key = p_key AND until_ms <= p_now;
  SELECT count(*) INTO live FROM svc_failure_holds WHERE key = p_key;
  SELECT failures, locked_until INTO counted, lock_end FROM svc_failures WHERE key = p_key;
  -- A lock-out that began since the caller looked: no place (the caller looks again and finds it).
  IF lock_end > p_now THEN
    RETURN false;
  END IF;
  -- No row, or a lock-out that is over: the count starts again from zero.
  IF counted IS NULL OR (lock_end > 0 AND lock_end <= p_now) THEN
    counted := 0;
  END IF;
  -- With nothing in flight there is nothing to wait for.
  IF counted + live < p_max OR live = 0 THEN
    INSERT INTO svc_failure_holds (key, hold, until_ms) VALUES (p_key, p_hold, p_now + p_lease);
    RETURN true;
  END IF;
  RETURN false;
END
$fn$;
`;
