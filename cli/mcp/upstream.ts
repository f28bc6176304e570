import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpKeys } from './keys.js';

/**
 * The relay's HTTP side: the SDK's own Streamable HTTP client transport (the v2 package, which
 * speaks both eras: for a 2026-07-28 message it derives the Mcp-Method / Mcp-Name headers from the
 * body, and for the 2025 revisions it carries Mcp-Session-Id and MCP-Protocol-Version). It reads
 * JSON and SSE answers (priming events with empty data included), and resumes an interrupted SSE
 * stream with Last-Event-ID when the server gave event ids.
 */
export function createUpstream(url: string, keys: McpKeys & { secretKey: string }): StreamableHTTPClientTransport {
  const headers: Record<string, string> = { Authorization: `Bearer ${keys.secretKey}` };
  if (keys.accountKey) headers['X-Api-Key'] = keys.accountKey;
  return new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers },
    reconnectionOptions: {
      initialReconnectionDelay: 500,
      maxReconnectionDelay: 10_000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 5,
    },
  });
}
