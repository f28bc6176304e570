import * as z from 'zod/mini';

/** `GET /api/audit` (and the operator's `GET /api/dev/audit`): filters, cursor and format (docs/audit.md). */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const instant = (field: string) =>
  z.string().check(
    z.refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
      message: `${field} must be an ISO 8601 date or time, e.g. 2026-11-28T10:00:00Z`,
    }),
  );
const cursor = (field: string) =>
  z.string().check(z.regex(/^aud_\d{16}$/, `${field} must be an audit entry id (aud_ and 16 digits)`));

export const auditQuery = z.strictObject({
  action: z.optional(text(100)),
  actor: z.optional(text(200)),
  key: z.optional(text(200)),
  outcome: z.optional(z.enum(['succeeded', 'refused'], { message: 'outcome must be succeeded or refused' })),
  since: z.optional(instant('since')),
  until: z.optional(instant('until')),
  cursor: z.optional(cursor('cursor')),
  after: z.optional(cursor('after')),
  limit: z.optional(
    z.string().check(
      z.regex(/^\d{1,4}$/, 'limit must be a whole number from 1 to 1000'),
      z.refine((v) => Number(v) >= 1 && Number(v) <= 1000, { message: 'limit must be a whole number from 1 to 1000' }),
    ),
  ),
  format: z.optional(z.enum(['json', 'jsonl'], { message: 'format must be json or jsonl' })),
  // The Company selection may also come as a query parameter (spec §5.2).
  company_id: z.optional(z.string()),
  trust_id: z.optional(z.string()),
});

export type AuditQueryInput = z.infer<typeof auditQuery>;
