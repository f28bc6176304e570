/**
 * The JSON-RPC 2.0 framing /api/mcp needs until the MCP server (issue 8) takes the endpoint over:
 * parse a body, and answer each request with "method not found".
 */
export interface JsonRpcError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;

export type RpcAnswer =
  /** One response, or a batch of them (HTTP 200), or a framing error (HTTP 400). */
  | { status: 200 | 400; body: JsonRpcError | JsonRpcError[] }
  /** Only notifications: nothing to answer (HTTP 202). */
  | { status: 202; body: null };

const errorFor = (id: JsonRpcError['id'], code: number, message: string): JsonRpcError => ({ jsonrpc: '2.0', id, error: { code, message } });

/** Answers every request of the body with -32601; notifications get no answer, per JSON-RPC. */
export function answerWithoutMethods(raw: Buffer): RpcAnswer {
  let message: unknown;
  try {
    message = JSON.parse(raw.toString('utf8'));
  } catch {
    return { status: 400, body: errorFor(null, PARSE_ERROR, 'Parse error: the body is not valid JSON.') };
  }
  if (Array.isArray(message)) {
    if (message.length === 0) return { status: 400, body: errorFor(null, INVALID_REQUEST, 'Invalid Request: empty batch.') };
    const answers = message.map(answerOne).filter((a): a is JsonRpcError => a !== null);
    return answers.length ? { status: 200, body: answers } : { status: 202, body: null };
  }
  const answer = answerOne(message);
  if (!answer) return { status: 202, body: null };
  return { status: answer.error.code === INVALID_REQUEST ? 400 : 200, body: answer };
}

function answerOne(message: unknown): JsonRpcError | null {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return errorFor(null, INVALID_REQUEST, 'Invalid Request: expected a JSON-RPC 2.0 object.');
  }
  const m = message as Record<string, unknown>;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || ('id' in m && m.id !== null && id === null)) {
    return errorFor(id, INVALID_REQUEST, 'Invalid Request: expected { "jsonrpc": "2.0", "id", "method" }.');
  }
  if (!('id' in m)) return null; // a notification
  return errorFor(id, METHOD_NOT_FOUND, `Method not found: ${m.method}`);
}
