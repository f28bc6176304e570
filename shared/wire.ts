/** Request and response shapes shared by the daemon and the CLI. */

export const TIERS = ['trial', 'starter', 'company', 'owner'] as const;
export type Tier = (typeof TIERS)[number];

/** One captured e-mail, as `GET /api/dev/mail` returns it (CONTRACT §3). */
export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  code: string | null;
  link: string | null;
  created_at: string;
}

export interface MailListResponse {
  mail: MailMessage[];
}

/** The daemon lock file: who holds the data folder, and where it listens. */
export interface DaemonLock {
  pid: number;
  url: string | null;
  started_at: string;
  version: string;
}

/** What a background daemon's banner (in <data>/daemon.log) shows in place of the invite code; `svc daemon start` mints one and substitutes it. */
export const WITHHELD_INVITE = '<minted by svc daemon start>';
