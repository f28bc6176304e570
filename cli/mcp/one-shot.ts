import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CliContext } from '../context.js';
import { AuthRequiredError, FailedError } from '../errors.js';
import { explainRefusal, unreachable } from './explain.js';
import { resolveMcpKeys } from './keys.js';
import { VERSION } from '../../shared/version.js';

/** A JSON-RPC result as the CLI reads it: any object, with the few fields `svc mcp` looks at typed. */
export interface McpResult {
  [field: string]: unknown;
  content?: { type: string; text?: string }[];
  isError?: boolean;
  tools?: { name: string; description?: string }[];
  nextCursor?: string;
}

export interface McpSession {
  /** The server's initialize result (protocol version, server info, capabilities). */
  initialized: McpResult;
  /** One request; resolves with its `result`, throws a CliError for a JSON-RPC error or an HTTP refusal. */
  request(method: string, params?: Record<string, unknown>): Promise<McpResult>;
  close(): Promise<void>;
}

/** Any result: `svc mcp call` prints what the server answered, whatever the method. */
const anyResult = z.object({}).loose();

/** The SDK Client over its Streamable HTTP transport: initialize + notifications/initialized, as any MCP client starts, then requests. */
export async function openMcpSession(ctx: CliContext): Promise<McpSession> {
  const url = ctx.url();
  const keys = await resolveMcpKeys(ctx);
  if (!keys.secretKey)
    throw new AuthRequiredError(
      'no secret key for MCP',
      "set SVC_SECRET_KEY, or create one with 'svc keys create --root <company> --name <label>'",
    );
  const headers: Record<string, string> = { Authorization: `Bearer ${keys.secretKey}` };
  if (keys.accountKey) headers['X-Api-Key'] = keys.accountKey;
  const client = new Client({ name: 'svc-cli', version: VERSION });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } });
  await client.connect(transport).catch((err: unknown) => {
    throw asCliError(err, 'initialize', url);
  });
  return {
    initialized: {
      protocolVersion: transport.protocolVersion,
      capabilities: client.getServerCapabilities(),
      serverInfo: client.getServerVersion(),
      instructions: client.getInstructions(),
    },
    request: (method, params) =>
      (client.request({ method, ...(params ? { params } : {}) } as never, anyResult) as Promise<McpResult>).catch(
        (err: unknown) => {
          throw asCliError(err, method, url);
        },
      ),
    close: () => client.close(),
  };
}

/** A JSON-RPC error, an HTTP refusal or an unreachable daemon, as the CLI's errors (exit 1, or 4 for refused keys). */
function asCliError(err: unknown, method: string, url: string): Error {
  if (err instanceof McpError)
    return new FailedError(`${method} failed: ${err.message.replace(/^MCP error -?\d+: /, '')} (JSON-RPC ${err.code})`);
  if (err instanceof StreamableHTTPError && typeof err.code === 'number') {
    const body = err.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, '');
    const message = explainRefusal(err.code, body, url);
    return err.code === 401
      ? new AuthRequiredError(message, 'check SVC_SECRET_KEY / SVC_ACCOUNT_KEY')
      : new FailedError(message);
  }
  if (err instanceof TypeError) return new FailedError(unreachable(url, err));
  return new FailedError(`${method} failed: ${(err as Error).message}`);
}
