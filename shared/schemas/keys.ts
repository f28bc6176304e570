import * as z from 'zod/mini';

/**
 * The keys routes' wire contract (docs/keys.md), one definition for the daemon (request
 * validation) and the CLI (response validation, `ctx.api().get(path, { schema })`).
 * Written with zod/mini (the same zod, tree-shakable) so the bundled CLI loads a few KB, not zod's 700.
 * Creating a key has its own file (key-create.ts): `svc keys list` builds only the schemas it reads.
 */
const time = z.string();
export const secretKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  company: z.object({ id: z.string(), name: z.nullable(z.string()) }),
  prefix: z.string(),
  created_at: time,
  last_used_at: z.nullable(time),
  // Optional for the CLI's sake: a daemon of an earlier release answers without them (its keys
  // have every scope and never expire).
  /** Null: every scope. */
  scopes: z.optional(z.nullable(z.array(z.string()))),
  expires_at: z.optional(z.nullable(time)),
  /** The address the key was last used from (written with last_used_at). */
  last_used_ip: z.optional(z.nullable(z.string())),
  /** Set once the key was rotated: it stops working at this time. */
  retires_at: z.optional(z.nullable(time)),
  replaced_by: z.optional(z.nullable(z.string())),
});
export type SecretKeyRow = z.infer<typeof secretKeyRow>;

export const keyListResponse = z.object({
  keys: z.array(secretKeyRow),
  account_key: z.nullable(
    z.object({ id: z.string(), prefix: z.string(), created_at: time, last_used_at: z.nullable(time) }),
  ),
});
export type KeyListResponse = z.infer<typeof keyListResponse>;
