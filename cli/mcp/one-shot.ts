import type { CliContext } from '../context.js';
import { AuthRequiredError, FailedError } from '../errors.js';
import { LATEST_PROTOCOL, McpHttpClient } from './http-client.js';
import { resolveMcpKeys } from './keys.js';
import { VERSION } from '../../shared/version.js';

export interface McpSession {
  /** The server's initialize result (protocol version, server info, capabilities). */
  initialized: any;
  /** One request; resolves with its `result`, throws a CliError for a JSON-RPC error or an HTTP refusal. */
  request(method: string, params?: Record<string, unknown>): Promise<any>;
}

/** initialize + notifications/initialized, as any MCP client starts, then requests on the same session. */
export async function openMcpSession(ctx: CliContext): Promise<McpSession> {
  const keys = await resolveMcpKeys(ctx);
  if (!keys.secretKey) throw new AuthRequiredError('no secret key for MCP', "set SVC_SECRET_KEY, or create one with 'svc keys create --root <company> --name <label>'");
  const client = new McpHttpClient(ctx.url(), keys);
  let nextId = 1;
  const request = async (method: string, params?: Record<string, unknown>) => {
    const outcome = await client.post({ jsonrpc: '2.0', id: nextId++, method, ...(params ? { params } : {}) });
    if (!outcome.ok) {
      if (outcome.status === 401) throw new AuthRequiredError(outcome.message, 'check SVC_SECRET_KEY / SVC_ACCOUNT_KEY');
      throw new FailedError(outcome.message);
    }
    const answer = outcome.messages.find((m) => (m as { id?: unknown }).id !== undefined) as { result?: unknown; error?: { code: number; message: string } } | undefined;
    if (!answer) throw new FailedError(`${method}: the server sent no answer`);
    if (answer.error) throw new FailedError(`${method} failed: ${answer.error.message} (JSON-RPC ${answer.error.code})`);
    return answer.result;
  };
  const initialized = await request('initialize', { protocolVersion: LATEST_PROTOCOL, capabilities: {}, clientInfo: { name: 'svc-cli', version: VERSION } });
  const sent = await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  if (!sent.ok) throw new FailedError(sent.message);
  return { initialized, request };
}
