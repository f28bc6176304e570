import type * as z from 'zod';
import { ErrorCode } from '../shared/errors.js';

/**
 * Why a service said no, in the caller's terms, never as an HTTP status. Kept small: each refusal
 * is a different thing for the caller to do, and the HTTP error renderer gives each its status.
 * - `invalid`: the input is wrong; fix it (400).
 * - `unauthenticated`: no credentials, or ones that are wrong, expired or revoked (401).
 * - `payment_required`: the account's tier does not include this (402).
 * - `forbidden`: the caller is known but may not do this, or not yet (403).
 * - `not_found`: a record that is not there (404).
 * - `conflict`: the state a record is in (409).
 * - `too_large`: the input is over a size limit (413).
 * - `rate_limited`: too many attempts; `retryAfter` says when to try again (429).
 * - `unavailable`: a service it depends on (the mail server) cannot take the work right now (503).
 */
export type Refusal =
  | 'invalid'
  | 'unauthenticated'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

/**
 * An expected "no" from a service, free of HTTP: the services below the routes throw it, and only
 * the HTTP error renderer (→ the refusal's status with `{ error, code }`) and the MCP tool runner
 * (→ a tool error) turn it into an answer. `message` is written for the caller; `details` are
 * extra answer fields (e.g. `fields` of a validation). `retryAfter` (seconds) is the one thing a
 * service may say beyond the body: the renderer sends it as `Retry-After`. There is no free-form
 * header, so a service cannot shape the HTTP answer past what its refusal means.
 */
export class DomainError extends Error {
  readonly retryAfter: number | undefined;
  constructor(
    readonly refusal: Refusal,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    options: { retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'DomainError';
    this.retryAfter = options.retryAfter;
  }
}

export const invalid = (message: string, code: string, details?: Record<string, unknown>) =>
  new DomainError('invalid', code, message, details);
export const unauthenticated = (message = 'Authentication required.', code: string = ErrorCode.unauthorized) =>
  new DomainError('unauthenticated', code, message);
export const paymentRequired = (message: string, code: string, details?: Record<string, unknown>) =>
  new DomainError('payment_required', code, message, details);
export const forbidden = (message: string, code: string = ErrorCode.forbidden) =>
  new DomainError('forbidden', code, message);
export const missing = (message: string, code: string = ErrorCode.notFound) =>
  new DomainError('not_found', code, message);
export const conflicting = (message: string, code: string = ErrorCode.conflict) =>
  new DomainError('conflict', code, message);
export const tooLarge = (message: string, code: string = ErrorCode.payloadTooLarge) =>
  new DomainError('too_large', code, message);
export const unavailable = (message: string, code: string) => new DomainError('unavailable', code, message);

/**
 * Too many attempts: wait `retryAfterSeconds`. The wait is in the body (`retry_after`) for scripts
 * and, through `retryAfter`, in the `Retry-After` header for HTTP clients.
 */
export const rateLimited = (
  retryAfterSeconds: number,
  message = 'Too many requests. Try again later.',
  code: string = ErrorCode.rateLimited,
) =>
  new DomainError('rate_limited', code, message, { retry_after: retryAfterSeconds }, { retryAfter: retryAfterSeconds });

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
