import { z } from 'zod';

/**
 * The keys routes' wire contract (docs/keys.md), one definition for the daemon (request
 * validation) and the CLI (response validation, `ctx.api().get(path, { schema })`).
 */
export const keyCreateBody = z.object({
  root: z
    .string({ message: 'root is required (a Company name or id)' })
    .trim()
    .min(1, 'root is required (a Company name or id)')
    .max(200),
  name: z
    .string({ message: 'name is required (a label for the key)' })
    .trim()
    .min(1, 'name is required (a label for the key)')
    .max(100, 'name is at most 100 characters'),
});

const time = z.string();
export const secretKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  company: z.object({ id: z.string(), name: z.string().nullable() }),
  prefix: z.string(),
  created_at: time,
  last_used_at: time.nullable(),
});
export type SecretKeyRow = z.infer<typeof secretKeyRow>;

export const keyListResponse = z.object({
  keys: z.array(secretKeyRow),
  account_key: z
    .object({ id: z.string(), prefix: z.string(), created_at: time, last_used_at: time.nullable() })
    .nullable(),
});
export type KeyListResponse = z.infer<typeof keyListResponse>;

export const keyCreatedResponse = secretKeyRow.extend({
  ok: z.literal(true),
  secret_key: z.string(),
  note: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
});
export type KeyCreatedResponse = z.infer<typeof keyCreatedResponse>;
