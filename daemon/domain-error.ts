import type * as z from 'zod';
import { ErrorCode } from '../shared/errors.js';

/**
 * Why a service said no: the input, a record that is not there, the state a record is in, or a
 * service it depends on (the mail server) that cannot take the work right now.
 */
export type Refusal = 'invalid' | 'not_found' | 'conflict' | 'unavailable';

/**
 * An expected "no" from a service, free of HTTP: the services below the routes (the Company
 * runtime, the events bus) throw it, and only the HTTP error renderer (→ 400/404/409 with
 * `{ error, code }`) and the MCP tool runner (→ a tool error) turn it into an answer. `message` is
 * written for the caller; `details` are extra answer fields (e.g. `fields` of a validation).
 */
export class DomainError extends Error {
  constructor(
    readonly refusal: Refusal,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, code: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', code, message, details);
export const missing = (message: string, code: string = ErrorCode.notFound) =>
  new DomainError('not_found', code, message);
export const unavailable = (message: string, code: string) => new DomainError('unavailable', code, message);
export const conflicting = (message: string, code: string = ErrorCode.conflict) =>
  new DomainError('conflict', code, message);

/**
 * Parses a service's input with a zod schema, or refuses it naming the first bad field
 * (`title: Too small`) with every bad field in `fields`: the same answer as the routes' validate.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => ({
    field: issue.path.join('.') || '(body)',
    message: issue.message,
  }));
  const first = fields[0]!;
  throw invalid(`${first.field}: ${first.message}`, ErrorCode.validationFailed, { fields });
}
