import * as z from 'zod';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';

/**
 * Parses input with a zod schema, or throws a 400 whose message names the first bad field
 * (`email: Invalid email address`) and whose `fields` list all of them. For routes; services
 * below them use `parseInput` (domain-error.ts), which the error renderer answers the same way.
 * Takes any zod schema, classic or zod/mini (shared/schemas/ are mini); parsing through classic
 * zod's `safeParse` also installs its English messages, which mini schemas would otherwise lack.
 */
export function validate<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
  const first = fields[0]!;
  throw new ApiError(400, ErrorCode.validationFailed, `${first.field}: ${first.message}`, { fields });
}
