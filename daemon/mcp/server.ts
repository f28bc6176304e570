import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../shared/version.js';
import type { Logger } from '../logger.js';
import { RpcCode } from './jsonrpc.js';
import { RequestTransport } from './request-transport.js';
import { describeTool, runTool } from './tool-runner.js';
import { visibleTools } from './tool-access.js';
import { ALL_TOOLS } from './tools/index.js';
import type { McpTool, ToolContext } from './tools/types.js';

/**
 * A JSON-RPC error with the plain sentence as its message. Not McpError's wording ("MCP error
 * <code>: …"): SDK clients prefix that themselves, so the prefix would reach users twice.
 */
function rpcFailure(message: JSONRPCRequest, code: number, text: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id: message.id, error: { code, message: text } };
}

/** What a handler throws for the SDK's Protocol to answer `{ code, message }` unprefixed (it reads both fields off any error). */
const protocolError = (code: number, text: string) => Object.assign(new Error(text), { code });

export const SERVER_INSTRUCTIONS =
  'Tools act on the Company the secret key is bound to. Start with whoami. The events tool drives the causation bus (create, list, enable, disable, delete, trigger, trace).';

/**
 * The 2026-07-28 cache fields of tools/list. The list is fixed when the daemon starts (ALL_TOOLS,
 * described once; `listChanged: false`) and changes only when a daemon of another version replaces
 * it, which no client can foresee. An hour bounds how long a client keeps an upgraded daemon's old
 * list, and a call built from a stale schema is refused with the allowed arguments, not misread.
 * Private: the answer is for one key, and no shared cache may hand it to another.
 */
export const TOOLS_LIST_CACHE = { ttlMs: 60 * 60 * 1000, cacheScope: 'private' } as const;

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
export function createMcpDispatcher(
  log: Logger,
  tools: McpTool[] = ALL_TOOLS,
  options: { direct?: boolean } = {},
): McpDispatcher {
  const server = new Server(
    { name: 'svc', title: 'svc agent platform', version: VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(describeTool);
  const contextOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }) =>
    extra.authInfo?.extra?.toolContext as ToolContext;

  server.setRequestHandler(ListToolsRequestSchema, async (_req, extra) => ({
    tools: visibleTools(listed, contextOf(extra).keyAuth),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = byName.get(req.params.name);
    // An unknown tool is a protocol error (MCP: -32602), unlike a tool that ran and failed.
    if (!tool) throw protocolError(RpcCode.InvalidParams, unknownTool(req.params.name));
    return runTool(tool, req.params.arguments, contextOf(extra), log);
  });
  server.onerror = (err) => log.warn('mcp server error', { err });

  /**
   * tools/call and tools/list skip the SDK's Server: on the way in and out of it a tools/call is
   * validated seven times over (the JSON-RPC envelope three times more, CallToolRequestSchema three
   * times, the result once), and gets an AbortController and a context object per call — about a
   * third of the call's CPU. The endpoint has already checked the envelope (classify) and the params
   * against the same SDK schema (checkRequest) before this point, and runTool builds results of the
   * CallToolResult shape, so what is skipped is repetition. Answers are the SDK's, byte for byte
   * in content (tests/daemon/mcp/fast-path.test.ts compares both paths). Every other method still
   * goes through the SDK.
   */
  const answerDirectly = (message: JSONRPCRequest, ctx: ToolContext): Promise<JSONRPCMessage> | null => {
    if (message.method === 'tools/list')
      return Promise.resolve({ result: { tools: visibleTools(listed, ctx.keyAuth) }, jsonrpc: '2.0', id: message.id });
    if (message.method !== 'tools/call') return null;
    // A task-augmented call (`params.task`, 2025-11-25) is run as a plain call: we declare no
    // `tasks` capability, and a receiver without it MUST process the request normally, ignoring the
    // task metadata (tasks spec). The answer is then the CallToolResult itself, not a CreateTaskResult.
    const params = message.params as { name: string; arguments?: Record<string, unknown> };
    const tool = byName.get(params.name);
    if (!tool) return Promise.resolve(rpcFailure(message, RpcCode.InvalidParams, unknownTool(params.name)));
    return runTool(tool, params.arguments, ctx, log).then(
      (result) => ({ result, jsonrpc: '2.0', id: message.id }) as JSONRPCMessage,
      (err: unknown) => {
        log.error('mcp tools/call failed', { tool: tool.name, err });
        return rpcFailure(message, RpcCode.InternalError, 'Internal error');
      },
    );
  };
  const unknownTool = (name: string) => `Unknown tool: '${name}'. Available tools: ${[...byName.keys()].join(', ')}.`;

  const transport = new RequestTransport();
  const connected = server.connect(transport);
  const authInfo = (ctx: ToolContext) => ({
    token: '',
    clientId: ctx.keyAuth.limitId,
    scopes: [],
    extra: { toolContext: ctx },
  });
  return {
    request: async (message, ctx) => {
      const fast = options.direct === false ? null : answerDirectly(message, ctx);
      if (fast) return fast;
      await connected;
      return transport.request(withoutTask(message), authInfo(ctx));
    },
    close: () => server.close(),
  };
}

/** The SDK's Server refuses `params.task` without a task store (-32603); we run such a call plainly (see answerDirectly). */
function withoutTask(message: JSONRPCRequest): JSONRPCRequest {
  if (message.method !== 'tools/call' || (message.params as { task?: unknown } | undefined)?.task === undefined)
    return message;
  const { task: _ignored, ...params } = message.params as Record<string, unknown>;
  return { ...message, params } as JSONRPCRequest;
}
