/**
 * Indexes for the sweep that every failed sign-in runs (limit-store.ts `fail`): it deletes up to 20
 * rows whose lock-out is over or whose last failure is a day old. Without an index that search read
 * the table until it found 20, so while many accounts had recent failures (a password spray over
 * 100,000 accounts) every failure read all of them: 0.5 ms per failure at 1,000 tracked accounts,
 * 8.4 ms at 100,000. One partial index per half of the condition keeps it a short range scan.
 */
export const failureSweepSchema = `
CREATE INDEX svc_failures_lock_ends ON svc_failures (locked_until) WHERE locked_until > 0;
CREATE INDEX svc_failures_quiet_since ON svc_failures (last_at) WHERE locked_until = 0;
`;
