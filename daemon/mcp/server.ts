import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../shared/version.js';
import type { Logger } from '../logger.js';
import { RpcCode } from './jsonrpc.js';
import { RequestTransport } from './request-transport.js';
import { describeTool, runTool } from './tool-runner.js';
import { ALL_TOOLS } from './tools/index.js';
import type { McpTool, ToolContext } from './tools/types.js';

export interface McpDispatcher {
  request(message: JSONRPCRequest, ctx: ToolContext): Promise<JSONRPCMessage>;
  close(): Promise<void>;
}

/**
 * The SDK's Server, built once for the daemon: it negotiates the protocol version on initialize,
 * answers ping, and routes tools/list and tools/call to our handlers. Nothing in it depends on the
 * caller — who calls travels with each message (authInfo.extra) — so one instance serves every
 * key and Company, and a request costs no construction (see bench/cases/80-mcp.ts).
 */
export function createMcpDispatcher(log: Logger, tools: McpTool[] = ALL_TOOLS): McpDispatcher {
  const server = new Server(
    { name: 'svc', title: 'svc agent platform', version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Tools act on the Company the secret key is bound to. Start with whoami. The events tool drives the causation bus (create, list, enable, disable, delete, trigger, trace).',
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(describeTool);
  const contextOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }) => extra.authInfo?.extra?.toolContext as ToolContext;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = byName.get(req.params.name);
    // An unknown tool is a protocol error (MCP: -32602), unlike a tool that ran and failed.
    if (!tool) throw new McpError(RpcCode.InvalidParams, `Unknown tool: '${req.params.name}'. Available tools: ${[...byName.keys()].join(', ')}.`);
    return runTool(tool, req.params.arguments, contextOf(extra), log);
  });
  server.onerror = (err) => log.warn('mcp server error', { err });

  const transport = new RequestTransport();
  const connected = server.connect(transport);
  const authInfo = (ctx: ToolContext) => ({ token: '', clientId: ctx.keyAuth.keyId, scopes: [], extra: { toolContext: ctx } });
  return {
    request: async (message, ctx) => {
      await connected;
      return transport.request(message, authInfo(ctx));
    },
    close: () => server.close(),
  };
}
