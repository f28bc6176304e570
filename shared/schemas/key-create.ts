import * as z from 'zod/mini';
import { secretKeyRow } from './keys.js';
import { ALL_SCOPES, isScope } from '../scopes.js';

/** The longest lifetime a request may even name (ten years): beyond it, leave the expiry out. */
export const MAX_EXPIRES_IN = 10 * 365 * 24 * 3600;

const scopeList = z.array(z.string({ message: 'each scope is a string such as "events:read"' })).check(
  z.minLength(1, 'scopes is empty: name at least one scope, or leave scopes out for a key with every scope'),
  z.maxLength(ALL_SCOPES.length * 2),
  z.superRefine((scopes, ctx) => {
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length > 0)
      ctx.addIssue({
        code: 'custom',
        input: scopes,
        message: `unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}; the scopes are ${ALL_SCOPES.join(', ')}`,
      });
  }),
);

/** Creating a key (POST /api/keys): the request the daemon validates, the answer the CLI checks. */
export const keyCreateBody = z.object({
  root: z
    .string({ message: 'root is required (a Company name or id)' })
    .check(z.trim(), z.minLength(1, 'root is required (a Company name or id)'), z.maxLength(200)),
  name: z
    .string({ message: 'name is required (a label for the key)' })
    .check(
      z.trim(),
      z.minLength(1, 'name is required (a label for the key)'),
      z.maxLength(100, 'name is at most 100 characters'),
    ),
  /** Absent: every scope. */
  scopes: z.optional(scopeList),
  /** Seconds from now; or `expires_at`, not both. Absent: no expiry (or the daemon's longest lifetime). */
  expires_in: z.optional(
    z
      .number({ message: 'expires_in is a number of seconds' })
      .check(
        z.int('expires_in is a whole number of seconds'),
        z.positive('expires_in must be at least 1 second'),
        z.maximum(MAX_EXPIRES_IN, `expires_in is at most ${MAX_EXPIRES_IN} seconds (ten years)`),
      ),
  ),
  expires_at: z.optional(z.iso.datetime({ message: 'expires_at is an ISO 8601 time such as 2026-12-31T00:00:00Z' })),
});

export const keyCreatedResponse = z.extend(secretKeyRow, {
  ok: z.literal(true),
  secret_key: z.string(),
  note: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
});
export type KeyCreatedResponse = z.infer<typeof keyCreatedResponse>;
