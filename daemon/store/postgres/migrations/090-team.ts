/**
 * What team mode shares besides the account and per-Company stores (version 90: between the
 * account side's 1… and the per-Company side's 100…).
 *
 * - `svc_pairings`: pending `svc login --web` pairings (daemon/auth/pairing/), so a pairing started
 *   through one daemon can be approved and polled through any other. A row lives ten minutes.
 * - `svc_schedule_ticks` goes: ticks are claimed on the scheduler's cursors (`svc_rt_tick_cursors`,
 *   migration 100), and nothing ever wrote this table.
 */
export const teamSchema = `
CREATE TABLE svc_pairings (
  id text PRIMARY KEY,
  device_hash text NOT NULL UNIQUE,
  code_hash text NOT NULL,
  status text NOT NULL,
  expires_at text COLLATE "C" NOT NULL, -- ISO times: byte order is time order
  doc json NOT NULL
);
CREATE INDEX svc_pairings_by_code ON svc_pairings (code_hash);
CREATE INDEX svc_pairings_by_expiry ON svc_pairings (expires_at);

DROP TABLE IF EXISTS svc_schedule_ticks;
`;
