import type { Context, Middleware } from 'koa';
import { ErrorCode, type ErrorBody } from '../../shared/errors.js';
import { ApiError } from './api-error.js';
import { DomainError, type Refusal } from '../domain-error.js';
import type { Logger } from '../logger.js';
import { isDatabaseUnavailable, isTransientConflict } from '../store/unavailable.js';

/**
 * Renders every thrown error as JSON `{ error, code }`. ApiErrors (thrown by the HTTP layer:
 * routes, body parsing, guards of the transport) carry their own status; a service's DomainError
 * gets the status of its refusal and a `Retry-After` from its `retryAfter`;
 * errors from Koa or its libraries with an `expose`d 4xx status keep it; anything else is a 500
 * whose details are logged with the request id and never sent to the client.
 */
export function errorRenderer(log: Logger): Middleware {
  return async function renderErrors(ctx, next) {
    try {
      await next();
    } catch (err) {
      renderError(ctx, err, log);
    }
  };
}

/** Turns `err` into the answer on `ctx` (the daemon's front door calls this from its own catch). */
export function renderError(ctx: Context, err: unknown, log: Logger): void {
  const { status, body, headers } = toResponse(err);
  if (status >= 500)
    log.error('request failed', { request_id: ctx.state.requestId, method: ctx.method, path: ctx.path, err });
  ctx.status = status;
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.body = { ...body, request_id: ctx.state.requestId } satisfies ErrorBody;
}

/** The one place a service's refusal becomes an HTTP status. */
const STATUS_OF: Record<Refusal, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

export const statusOfRefusal = (refusal: Refusal): number => STATUS_OF[refusal];

/** A dependency that is down is worth retrying; with no wait of its own, say half a minute. */
const UNAVAILABLE_RETRY_SECONDS = 30;

function domainHeaders(err: DomainError): Record<string, string> {
  const wait = err.retryAfter ?? (err.refusal === 'unavailable' ? UNAVAILABLE_RETRY_SECONDS : undefined);
  // Retry-After is whole seconds (RFC 9110 §10.2.3), and 0 would invite an immediate retry.
  return wait === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(wait))) };
}

function toResponse(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (err instanceof DomainError) {
    const body = { ...err.details, error: err.message, code: err.code };
    return { status: STATUS_OF[err.refusal], body, headers: domainHeaders(err) };
  }
  if (err instanceof ApiError) {
    if (err.status >= 500) return internal();
    return { status: err.status, body: { ...err.extra, error: err.message, code: err.code }, headers: err.headers };
  }
  const e = err as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return { status: e.status, body: { error: String(e.message), code: codeForStatus(e.status) }, headers: {} };
  }
  // Team mode: the database is down or restarting. Worth retrying, and not the caller's fault.
  if (isDatabaseUnavailable(err)) {
    const error = 'The database is unavailable. Try again in a few seconds.';
    return { status: 503, body: { error, code: ErrorCode.databaseUnavailable }, headers: { 'retry-after': '5' } };
  }
  // Team mode: a deadlock or serialization failure with another request. Rolled back, so retrying is safe.
  if (isTransientConflict(err)) {
    const error = 'The database stopped this request for a conflicting one; nothing was changed. Send it again.';
    return { status: 503, body: { error, code: ErrorCode.databaseBusy }, headers: { 'retry-after': '1' } };
  }
  return internal();
}

function internal() {
  return {
    status: 500,
    body: { error: 'Internal error. It has been logged with this request id.', code: ErrorCode.internal },
    headers: {},
  };
}

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return ErrorCode.badRequest;
    case 401:
      return ErrorCode.unauthorized;
    case 403:
      return ErrorCode.forbidden;
    case 404:
      return ErrorCode.notFound;
    case 405:
      return ErrorCode.methodNotAllowed;
    case 409:
      return ErrorCode.conflict;
    case 413:
      return ErrorCode.payloadTooLarge;
    case 415:
      return ErrorCode.unsupportedMediaType;
    case 429:
      return ErrorCode.rateLimited;
    default:
      return ErrorCode.badRequest;
  }
}
