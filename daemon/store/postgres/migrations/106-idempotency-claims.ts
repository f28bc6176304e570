/**
 * An Idempotency-Key taken while its first request runs, seen by every daemon. The answers table
 * only held finished answers, so two requests with one key that arrived at once on two daemons
 * (a client retrying through a load balancer while its first try still ran) both found nothing and
 * both ran: two events for one key. Now a request first takes the key (`claim`, a random token,
 * with `claim_until`); a repeat on any daemon that finds the key taken waits for the answer, or
 * takes over once the claim has run out (its daemon died). Finished answers have both null.
 */
export const idempotencyClaimsSchema = `
ALTER TABLE svc_rt_idempotency ADD COLUMN claim text, ADD COLUMN claim_until bigint;
`;
