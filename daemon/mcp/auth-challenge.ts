import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from '../http/api-error.js';
import { DomainError } from '../domain-error.js';

/** Header values are one line of ASCII; a quote or backslash would end the quoted-string early. */
const quoted = (text: string) => `"${text.replace(/[^\x20-\x7e]/g, ' ').replace(/["\\]/g, "'")}"`;

/**
 * RFC 9110 §11.6.1: a 401 MUST carry WWW-Authenticate. The MCP authorization spec builds on
 * RFC 6750's Bearer challenge; without one, clients (mcp-remote) guess at an OAuth flow and report
 * a failed client registration instead of "this server wants a key". `error` says which case it
 * is: no credentials (invalid_request) or a key that is malformed, revoked or mismatched
 * (invalid_token); the description is the same sentence the JSON body carries.
 * `resource_metadata` (RFC 9728 §5.1) is where an OAuth-capable client starts: the protected
 * resource's metadata names the authorization server that issues tokens for this endpoint.
 */
export function withBearerChallenge(guard: Middleware, resourceMetadata?: string): Middleware {
  const metadata = resourceMetadata ? `, resource_metadata=${quoted(resourceMetadata)}` : '';
  return async function challengeOn401(ctx, next) {
    try {
      await guard(ctx, next);
    } catch (err) {
      const refusal = unauthenticatedRefusal(err);
      if (!refusal) throw err;
      const error = refusal.code === ErrorCode.unauthorized ? 'invalid_request' : 'invalid_token';
      const challenge = `Bearer realm="svc"${metadata}, error="${error}", error_description=${quoted(refusal.message)}`;
      throw new ApiError(401, refusal.code, refusal.message, refusal.extra, {
        ...refusal.headers,
        'WWW-Authenticate': challenge,
      });
    }
  };
}

/** The guard's 401: the key guard's unauthenticated refusal, or a 401 the HTTP layer threw itself. */
function unauthenticatedRefusal(err: unknown) {
  if (err instanceof DomainError && err.refusal === 'unauthenticated')
    return { code: err.code, message: err.message, extra: err.details, headers: {} };
  if (err instanceof ApiError && err.status === 401)
    return { code: err.code, message: err.message, extra: err.extra, headers: err.headers };
  return null;
}
