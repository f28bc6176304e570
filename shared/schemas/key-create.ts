import * as z from 'zod/mini';
import { secretKeyRow } from './keys.js';

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
});

export const keyCreatedResponse = z.extend(secretKeyRow, {
  ok: z.literal(true),
  secret_key: z.string(),
  note: z.string(),
  company: z.object({ id: z.string(), name: z.string() }),
});
export type KeyCreatedResponse = z.infer<typeof keyCreatedResponse>;
