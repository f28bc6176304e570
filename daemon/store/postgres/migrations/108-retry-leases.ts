/**
 * When the retry walker wakes next (`nextDueMs`, after every walk on every daemon) was the minimum
 * over a whole Company's pending retries: 1.4 to 2.0 ms a call at 10,000 against 0.2 ms at 100, and
 * a Company whose tool keeps failing gathers them. It is now the first pending retry on the due index and
 * the first lease to end among running ones, on this index of running retries only (attempts in
 * flight: a few rows, whatever the pending ones number).
 */
export const retryLeasesSchema = `
CREATE INDEX svc_rt_retries_running ON svc_rt_retries (company_id, lease_until_ms) WHERE state = 'running';
`;
