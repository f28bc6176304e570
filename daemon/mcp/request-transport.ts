import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

interface Pending {
  originalId: RequestId;
  resolve(message: JSONRPCMessage): void;
}

/**
 * An in-process Transport for one long-lived SDK Server: each HTTP POST hands its message in and
 * awaits the matching answer. It stands in for the SDK's StreamableHTTPServerTransport, which in
 * stateless mode must be built (with a Server) per request and then answers through node's res;
 * here the Server is built once and Koa writes the answer.
 *
 * Requests are renumbered on the way in because two clients may both send `id: 1` at once and the
 * SDK keys its in-flight table by id; the client's id is put back on the answer.
 */
export class RequestTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const [id, p] of this.pending) {
      p.resolve({ jsonrpc: '2.0', id: p.originalId, error: { code: -32000, message: 'The server is shutting down.' } });
      this.pending.delete(id);
    }
    this.onclose?.();
  }

  /** The SDK's answers (and any notification it sends, which this stateless endpoint drops: there is no stream to carry it). */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || typeof message.id !== 'number' || 'method' in message) return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.resolve({ ...message, id: pending.originalId } as JSONRPCMessage);
  }

  /** Hands a request to the Server and resolves with its response. */
  request(message: JSONRPCRequest, authInfo: AuthInfo): Promise<JSONRPCMessage> {
    const internalId = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(internalId, { originalId: message.id, resolve });
      this.onmessage?.({ ...message, id: internalId }, { authInfo });
    });
  }
}
