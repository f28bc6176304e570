import * as z from 'zod/mini';

/**
 * The keys routes' wire contract (docs/keys.md), one definition for the daemon (request
 * validation) and the CLI (response validation, `ctx.api().get(path, { schema })`).
 * Written with zod/mini (the same zod, tree-shakable) so the bundled CLI loads a few KB, not zod's 700.
 */
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
});

const time = z.string();
export const secretKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  company: z.object({ id: z.string(), name: z.nullable(z.string()) }),
  prefix: z.string(),
  created_at: time,
  last_used_at: z.nullable(time),
});
export type SecretKeyRow = z.infer<typeof secretKeyRow>;

export const keyListResponse = z.object({
  keys: z.array(secretKeyRow),
  account_key: z.nullable(
    z.object({ id: z.string(), prefix: z.string(), created_at: time, last_used_at: z.nullable(time) }),
  ),
});
export type KeyListResponse = z.infer<typeof keyListResponse>;

export const keyCreatedResponse = z.extend(secretKeyRow, {
  ok: z.literal(true),
  secret_key: z.string(),
  note: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
});
export type KeyCreatedResponse = z.infer<typeof keyCreatedResponse>;
