import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * A stateful MCP server built from the SDK's own server pieces (McpServer, StreamableHTTPServerTransport
 * with an event store), for what svc's stateless endpoint never does but other servers do: sessions
 * (and forgetting them: 404), SSE answers with priming events (empty data), streams closed mid-call
 * and resumed with Last-Event-ID, progress, server-to-client requests, cancellation.
 */
export interface SdkUpstream {
  url: string;
  /** Forgets every session, as a restarted server does: the next request with an old id gets 404. */
  forgetSessions(): void;
  /** Sessions opened so far (each initialize opens one). */
  sessionsOpened(): number;
  /** Resolves when the `wait` tool's call was cancelled by the client. */
  cancelled: Promise<string>;
  close(): Promise<void>;
}

export async function startSdkUpstream(): Promise<SdkUpstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let opened = 0;
  let onCancel: (reason: string) => void = () => undefined;
  const cancelled = new Promise<string>((resolve) => (onCancel = resolve));

  const makeServer = () => {
    const server = new McpServer({ name: 'sdk-upstream', version: '1.0.0' });
    // Progress, then the stream is cut (the client must resume with Last-Event-ID to get the result).
    server.registerTool('slow', { description: 'progress, a cut stream, then the answer' }, async (extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 1, total: 2 },
        });
      extra.closeSSEStream?.();
      return { content: [{ type: 'text', text: 'done after a resumed stream' }] };
    });
    // A server-to-client request answered by the client, through the relay both ways.
    server.registerTool('ask', { description: 'asks the client for its roots' }, async (extra) => {
      const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
      return { content: [{ type: 'text', text: roots.roots.map((r) => r.uri).join(',') }] };
    });
    server.registerTool('wait', { description: 'waits until cancelled' }, async (extra) => {
      await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
      onCancel(String(extra.signal.reason ?? 'cancelled'));
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    server.registerTool('hello', { description: 'answers hello' }, async () => ({
      content: [{ type: 'text', text: 'hello' }],
    }));
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let transport = sid ? transports.get(sid) : undefined;
    if (sid && !transport) {
      res
        .writeHead(404, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 20,
        onsessioninitialized: (id) => {
          opened++;
          transports.set(id, created);
        },
      });
      await makeServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    forgetSessions: () => transports.clear(),
    sessionsOpened: () => opened,
    cancelled,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
