import { decodeUtf8 } from '../http/utf8.js';
import {
  CallToolRequestSchema,
  ErrorCode as RpcCode,
  InitializeRequestSchema,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

export { RpcCode };

/** What one POSTed body turned out to be: a message to dispatch, or the JSON-RPC error to answer with. */
export type Classified =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'response'; message: JSONRPCMessage }
  | { kind: 'invalid'; error: JSONRPCErrorResponse };

export function rpcError(
  id: JSONRPCRequest['id'] | null,
  code: number,
  message: string,
  data?: unknown,
): JSONRPCErrorResponse {
  // The SDK types omit a null id, but JSON-RPC answers a message whose id cannot be read with `id: null`.
  return {
    jsonrpc: '2.0',
    id: id as JSONRPCRequest['id'],
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

/** Parses the raw body. The SDK's transport does this too; we do it so that bad bytes get a JSON-RPC parse error, not our REST 400. */
export function parseBody(raw: Buffer): { ok: true; value: unknown } | { ok: false; error: JSONRPCErrorResponse } {
  const text = decodeUtf8(raw);
  if (text === null)
    return { ok: false, error: rpcError(null, RpcCode.ParseError, 'Parse error: the body is not valid UTF-8.') };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: rpcError(null, RpcCode.ParseError, `Parse error: ${(err as Error).message}`) };
  }
}

/** One JSON-RPC message: a request, notification or response; anything else is an invalid request. (Arrays are batches: see batch.ts.) */
export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    return {
      kind: 'invalid',
      error: rpcError(null, RpcCode.InvalidRequest, 'Invalid request: a batch may not contain another array.'),
    };
  }
  if (isCommonRequest(value) || isJSONRPCRequest(value)) return { kind: 'request', message: value as JSONRPCRequest };
  if (isJSONRPCNotification(value)) return { kind: 'notification', message: value };
  if (isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value)) return { kind: 'response', message: value };
  return {
    kind: 'invalid',
    error: rpcError(
      idOf(value),
      RpcCode.InvalidRequest,
      'Invalid request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0", a string "method" and, for a request, a string or number "id".',
    ),
  };
}

/*
 * Hand checks for the shapes nearly every call has, so that they skip a zod parse (each one a few
 * microseconds per call). They only ever say yes to messages the SDK's schema also accepts — what
 * they do not recognise (a `_meta`, a `task`, an odd id) goes on to the schema, which decides —
 * so the answers are the schema's. tests/daemon/mcp/jsonrpc-shapes.test.ts holds them to it.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/** JSONRPCRequestSchema (strict): `jsonrpc: "2.0"`, a string or safe-integer id, a string method, params an object without `_meta`. */
export function isCommonRequest(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value))
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  const { id, params } = value;
  return (
    value.jsonrpc === '2.0' &&
    typeof value.method === 'string' &&
    (typeof id === 'string' || Number.isSafeInteger(id)) &&
    (params === undefined || (isPlainObject(params) && !Object.hasOwn(params, '_meta')))
  );
}

/** CallToolRequestSchema: params an object with a string name, `arguments` absent or an object, no `_meta` and no `task`. */
export function isCommonToolCall(message: JSONRPCRequest): boolean {
  const params = message.params;
  if (message.method !== 'tools/call' || !isPlainObject(params)) return false;
  const args = params.arguments;
  return (
    typeof params.name === 'string' &&
    (args === undefined || isPlainObject(args)) &&
    !Object.hasOwn(params, '_meta') &&
    !Object.hasOwn(params, 'task')
  );
}

function idOf(value: unknown): JSONRPCRequest['id'] | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The methods we serve, with the SDK schema their params must satisfy. */
const PARAM_SCHEMAS: Record<
  string,
  { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }
> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

export const SERVED_METHODS = Object.keys(PARAM_SCHEMAS);

/**
 * Checks a request before the SDK sees it: an unknown method → -32601, params that do not fit → -32602.
 * (The SDK would answer a params mismatch of ping or tools/list with -32603, an internal error, which it is not.)
 */
export function checkRequest(message: JSONRPCRequest): JSONRPCErrorResponse | null {
  // Own keys only: a method named `toString` or `__proto__` must be "not found", not Object.prototype's member.
  const schema = Object.hasOwn(PARAM_SCHEMAS, message.method) ? PARAM_SCHEMAS[message.method] : undefined;
  if (!schema)
    return rpcError(
      message.id,
      RpcCode.MethodNotFound,
      `Method not found: ${message.method}. This server offers ${SERVED_METHODS.join(', ')}.`,
    );
  if (isCommonToolCall(message)) return null;
  const parsed = schema.safeParse(message);
  // tools/list has a single page, so it never hands out a cursor: any cursor is one we did not issue (MCP pagination: -32602).
  if (
    parsed.success &&
    message.method === 'tools/list' &&
    (message.params as { cursor?: unknown } | undefined)?.cursor !== undefined
  ) {
    return rpcError(
      message.id,
      RpcCode.InvalidParams,
      'Invalid cursor: tools/list returns every tool on one page and issues no cursor; call it without one.',
    );
  }
  if (parsed.success) return null;
  const detail = (parsed.error?.issues ?? [])
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  return rpcError(message.id, RpcCode.InvalidParams, `Invalid params for ${message.method}: ${detail}`);
}
