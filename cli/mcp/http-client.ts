import type { McpKeys } from './keys.js';
import { sseData } from './sse.js';

/** What one POST to /api/mcp gave: the JSON-RPC messages to pass on, or why there are none. */
export type McpOutcome =
  | { ok: true; messages: unknown[] }
  | { ok: false; status: number | null; message: string };

export const LATEST_PROTOCOL = '2025-11-25';

/**
 * Posts JSON-RPC messages to {url}/api/mcp with both key headers, carrying what the server told us
 * to carry: the Mcp-Session-Id it issued (if any) and the protocol version initialize settled on.
 */
export class McpHttpClient {
  private sessionId: string | null = null;
  private protocolVersion: string | null = null;

  constructor(private readonly url: string, private readonly keys: McpKeys) {}

  async post(message: unknown): Promise<McpOutcome> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${this.keys.secretKey ?? ''}`,
    };
    if (this.keys.accountKey) headers['X-Api-Key'] = this.keys.accountKey;
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    if (this.protocolVersion) headers['MCP-Protocol-Version'] = this.protocolVersion;
    let res: Response;
    try {
      res = await fetch(`${this.url}/api/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      return { ok: false, status: null, message: `Cannot reach the svc daemon at ${this.url} (${cause?.code ?? cause?.message ?? (err as Error).message}). Start it with 'svc daemon start', or set SVC_URL to the platform's address.` };
    }
    const session = res.headers.get('mcp-session-id');
    if (session) this.sessionId = session;
    // A server that forgot our session answers 404: the next initialize starts a new one.
    if (res.status === 404) this.sessionId = null;
    const text = await res.text();
    if (res.status === 202 || (res.ok && text === '')) return { ok: true, messages: [] };
    const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream') ? sseData(text).map(tryJson) : [tryJson(text)];
    if (messages.length > 0 && messages.every(isJsonRpc)) {
      this.rememberVersion(message, messages);
      return { ok: true, messages };
    }
    return { ok: false, status: res.status, message: explain(res.status, messages[0], this.url) };
  }

  private rememberVersion(sent: unknown, answers: unknown[]): void {
    if ((sent as { method?: unknown })?.method !== 'initialize') return;
    // An SSE answer may carry notifications before the response itself.
    const response = answers.find((a) => (a as { result?: unknown }).result !== undefined) as { result?: { protocolVersion?: unknown } } | undefined;
    const version = response?.result?.protocolVersion;
    if (typeof version === 'string') this.protocolVersion = version;
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const isJsonRpc = (m: unknown) => typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0';

/** An HTTP refusal as a sentence that says what to do about it. */
function explain(status: number, body: unknown, url: string): string {
  const said = typeof body === 'object' && body && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : String(body ?? '').slice(0, 200);
  if (status === 401) return `The platform refused the keys (HTTP 401: ${said}). Check SVC_SECRET_KEY and SVC_ACCOUNT_KEY, or create a key with 'svc keys create --root <company> --name <label>'.`;
  if (status === 402) return `${said} (HTTP 402). MCP access needs the company or owner tier; on a local daemon run 'svc admin tier <email> company'.`;
  if (status === 404) return `No MCP endpoint at ${url}/api/mcp (HTTP 404). Check SVC_URL.`;
  return `The svc daemon answered HTTP ${status}: ${said}`;
}
