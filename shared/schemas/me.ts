import { z } from 'zod';

/** `GET /api/me` (spec §4.3), as `svc whoami` reads it. Fields the CLI does not show may be added freely. */
export const meResponse = z.object({
  id: z.string(),
  email: z.string().nullable(),
  email_verified: z.boolean(),
  tier: z.string(),
  display_name: z.string().nullable(),
  pending_email: z.string().nullable(),
  session: z.object({ id: z.string(), method: z.array(z.string()), expires_at: z.string() }),
});
export type MeResponse = z.infer<typeof meResponse>;

/** `GET /api/auth/sessions` → `{ sessions }`, the caller's live sessions. */
export const sessionRow = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  method: z.array(z.string()),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRow>;
export const sessionListResponse = z.object({ sessions: z.array(sessionRow) });

/** What a first-factor login answers (spec §4.2): a session, or a partial token for the TOTP step. */
export const loginAnswer = z.object({
  ok: z.boolean(),
  token: z.string().optional(),
  pending_verification: z.boolean().optional(),
  totp_required: z.boolean().optional(),
  partial_token: z.string().optional(),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;
