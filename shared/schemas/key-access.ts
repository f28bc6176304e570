import * as z from 'zod/mini';
import { secretKeyRow } from './keys.js';

/** The longest overlap a rotation may ask for: thirty days. */
export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;

/** POST /api/keys/{id}/rotate: how long the old key keeps working beside the new one. */
export const keyRotateBody = z.object({
  overlap_seconds: z
    .number({ message: 'overlap_seconds is required: how long the old key keeps working, 0 to 2592000 seconds' })
    .check(
      z.int('overlap_seconds is a whole number of seconds'),
      z.minimum(0, 'overlap_seconds is at least 0 (the old key stops at once)'),
      z.maximum(MAX_OVERLAP_SECONDS, `overlap_seconds is at most ${MAX_OVERLAP_SECONDS} (30 days)`),
    ),
});

export const keyRotatedResponse = z.extend(secretKeyRow, {
  ok: z.literal(true),
  secret_key: z.string(),
  note: z.string(),
  rotated_from: z.object({ id: z.string(), retires_at: z.string() }),
});
export type KeyRotatedResponse = z.infer<typeof keyRotatedResponse>;

/** POST /api/keys/{id}/explain: an MCP operation (`tools/call events trigger`) or a REST one (`POST /api/events/trigger`). */
export const keyExplainBody = z.object({
  operation: z
    .string({ message: 'operation is required, e.g. "tools/call events trigger" or "POST /api/events/trigger"' })
    .check(z.trim(), z.minLength(1, 'operation is required'), z.maxLength(500, 'operation is at most 500 characters')),
});

export const RULES = ['ok', 'scope', 'tier', 'expiry', 'revoked', 'rate_limit'] as const;

export const keyExplainResponse = z.object({
  allowed: z.boolean(),
  rule: z.enum(RULES),
  required_scope: z.optional(z.string()),
  message: z.optional(z.string()),
  operation: z.string(),
});
export type KeyExplainResponse = z.infer<typeof keyExplainResponse>;
