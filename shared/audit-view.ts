/** What GET /api/audit answers (docs/audit.md), as the CLI and the console read it. */

/** One entry, with the fields the clients show (the daemon sends more: details, the chain's seq and hashes). */
export interface AuditEntryView {
  id: string;
  at: string;
  actor: { type: string; user_id: string | null; key_id: string | null; client_id: string | null };
  company_id: string | null;
  action: string;
  target: string | null;
  outcome: 'succeeded' | 'refused';
  reason: string | null;
  client_address: string | null;
  user_agent: string | null;
}

/** One page, newest first; `next_cursor` asks for the page older than it. */
export interface AuditPageView {
  entries: AuditEntryView[];
  next_cursor: string | null;
}
