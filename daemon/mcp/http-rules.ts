import type { Context } from 'koa';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from '../http/api-error.js';
import { isJsonContentType } from '../http/body.js';

/**
 * The Streamable HTTP transport's MUSTs that are about HTTP rather than JSON-RPC. Each returns
 * nothing or throws the ApiError that becomes our usual `{ error, code }` answer.
 */

/**
 * The last Accept value that passed. A client sends the same one on every call and the answer
 * depends on the value alone, so it is not split and searched again (the header is public).
 */
let lastAccepted = '';

/** The client MUST accept both JSON and SSE answers; a wildcard range counts as accepting. */
export function checkAccept(ctx: Context): void {
  const header = ctx.get('Accept');
  if (header !== '' && header === lastAccepted) return;
  const ranges = header
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  const accepts = (type: string) => ranges.some((r) => r === type || r === '*/*' || r === `${type.split('/')[0]}/*`);
  if (accepts('application/json') && accepts('text/event-stream')) {
    lastAccepted = header;
    return;
  }
  throw new ApiError(
    406,
    ErrorCode.notAcceptable,
    'Not Acceptable: the Accept header must allow both application/json and text/event-stream.',
  );
}

export function checkContentType(ctx: Context): void {
  if (isJsonContentType(ctx.get('Content-Type'))) return;
  throw new ApiError(
    415,
    ErrorCode.unsupportedMediaType,
    'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.',
  );
}

/** A revision is a date (YYYY-MM-DD); the two eras are told apart by comparing them as text. */
const REVISION_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A header that is not a revision at all (`undefined`, `latest`, an empty list) is refused before
 * anything reads it: compared as text it would sort after every real revision and be taken for the
 * newest one.
 */
export function checkProtocolVersionShape(ctx: Context): void {
  const version = ctx.get('MCP-Protocol-Version');
  if (!version || REVISION_SHAPE.test(version)) return;
  throw new ApiError(
    400,
    ErrorCode.invalidProtocolVersion,
    `MCP-Protocol-Version '${version.slice(0, 64)}' is not a protocol revision: send a date such as ${SUPPORTED_PROTOCOL_VERSIONS[0]}, or leave the header out before initialize.`,
    { supported_versions: SUPPORTED_PROTOCOL_VERSIONS },
  );
}

/**
 * After initialize the client sends the negotiated revision in MCP-Protocol-Version; one we do not
 * speak is a 400. An absent header means 2025-03-26 (the spec's backwards-compatible default).
 */
export function checkProtocolVersion(ctx: Context): void {
  const version = ctx.get('MCP-Protocol-Version');
  if (!version || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return;
  throw new ApiError(
    400,
    ErrorCode.unsupportedProtocolVersion,
    `Unsupported MCP-Protocol-Version '${version}'. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    {
      supported_versions: SUPPORTED_PROTOCOL_VERSIONS,
    },
  );
}

/** This endpoint is stateless and opens no server-to-client stream: GET (SSE) and DELETE (end a session) are 405. */
export function refuseOtherMethods(ctx: Context): void {
  if (ctx.method === 'POST') return;
  throw new ApiError(
    405,
    ErrorCode.methodNotAllowed,
    `${ctx.method} is not supported on /api/mcp: this server sends no server-initiated stream and keeps no session. POST one JSON-RPC message.`,
    {},
    { Allow: 'POST, OPTIONS' },
  );
}
