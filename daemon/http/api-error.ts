import { ErrorCode } from '../../shared/errors.js';

/**
 * The one error class of the daemon. Routes throw it for every expected "no";
 * the error renderer turns it into `{ error, code }` with its status.
 * `extra` fields are merged into the body (e.g. `retry_after`), `headers` onto the answer.
 */
export class ApiError extends Error {
  readonly expose: boolean;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    // Koa's convention: 4xx messages are for the client, 5xx details stay in the log.
    this.expose = status < 500;
  }
}

export const badRequest = (message: string, code: string = ErrorCode.badRequest, extra?: Record<string, unknown>) =>
  new ApiError(400, code, message, extra);
export const unauthorized = (message = 'Authentication required.', code: string = ErrorCode.unauthorized) =>
  new ApiError(401, code, message);
export const forbidden = (message: string, code: string = ErrorCode.forbidden) => new ApiError(403, code, message);
export const notFound = (message: string, code: string = ErrorCode.notFound) => new ApiError(404, code, message);
export const conflict = (message: string, code: string = ErrorCode.conflict) => new ApiError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests. Try again later.') =>
  new ApiError(
    429,
    ErrorCode.rateLimited,
    message,
    { retry_after: retryAfterSeconds },
    {
      'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    },
  );
