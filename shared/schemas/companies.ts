import * as z from 'zod/mini';

/**
 * A Company name: what users type after `--root` and `svc companies use`. Letters, digits, spaces
 * and `._-`, starting with a letter or digit; never shaped like an id (`cmp_…`), so a `root` that
 * looks like an id is always read as one.
 */
export const companyBody = z.object({
  name: z.string({ message: 'name is required' }).check(
    z.trim(),
    z.minLength(1, 'name is required'),
    z.maxLength(64, 'name is at most 64 characters'),
    z.regex(
      /^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u,
      'name may hold letters, digits, spaces and . _ - and starts with a letter or digit',
    ),
    z.refine((n: string) => !/^cmp_/i.test(n), 'name may not start with cmp_ (that is how Company ids look)'),
  ),
});

const companyRow = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  // Optional for a daemon of an earlier release, where every listed Company was the caller's own.
  /** The caller's role: owner, admin, member or viewer. */
  role: z.optional(z.string()),
  owner_id: z.optional(z.string()),
});
export type CompanyRow = z.infer<typeof companyRow>;

/** `GET /api/companies` → `{ companies }`; `POST /api/companies` → `{ ok, id, name, created_at }` (CONTRACT §4). */
export const companyListResponse = z.object({ companies: z.array(companyRow) });
/** Enough of the list to find a Company by name or id (the CLI needs nothing more there). */
export const companyRefListResponse = z.object({ companies: z.array(z.object({ id: z.string(), name: z.string() })) });
export const companyCreatedResponse = z.extend(companyRow, { ok: z.literal(true) });
