import * as z from 'zod/mini';

/** `GET /api/me` (spec §4.3), as `svc whoami` reads it. Fields the CLI does not show may be added freely. */
export const meResponse = z.object({
  id: z.string(),
  email: z.nullable(z.string()),
  email_verified: z.boolean(),
  tier: z.string(),
  display_name: z.nullable(z.string()),
  pending_email: z.nullable(z.string()),
  session: z.object({ id: z.string(), method: z.array(z.string()), expires_at: z.string() }),
});
export type MeResponse = z.infer<typeof meResponse>;

/** `GET /api/auth/sessions` → `{ sessions }`, the caller's live sessions. */
const sessionRow = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  method: z.array(z.string()),
  user_agent: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRow>;
export const sessionListResponse = z.object({ sessions: z.array(sessionRow) });

/** What a first-factor login answers (spec §4.2): a session, or a partial token for the TOTP step. */
const loginAnswer = z.object({
  ok: z.boolean(),
  token: z.optional(z.string()),
  pending_verification: z.optional(z.boolean()),
  totp_required: z.optional(z.boolean()),
  partial_token: z.optional(z.string()),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;
