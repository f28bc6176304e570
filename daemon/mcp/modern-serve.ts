import type { Context } from 'koa';
import { createMcpHandler, isLegacyRequest, Server as ServerV2 } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../shared/version.js';
import type { Logger } from '../logger.js';
import { RpcCode } from './jsonrpc.js';
import { SERVER_INSTRUCTIONS, TOOLS_LIST_CACHE } from './server.js';
import { runTool } from './tool-runner.js';
import { INSUFFICIENT_SCOPE_RPC, toolVerdict, visibleTools } from './tool-access.js';
import type { McpTool, ToolContext } from './tools/types.js';

/** The first revision of the stateless, per-request-envelope era (no initialize, `server/discover`, Mcp-Method/Mcp-Name headers). */
export const MODERN_REVISION = '2026-07-28';
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

export interface ModernLeg {
  /** True when the request belongs to 2026-07-28 (or later) serving; everything else stays on the 2025-era path. */
  claims(ctx: Context, body: unknown): Promise<boolean>;
  serve(ctx: Context, raw: Buffer, body: unknown, toolContext: ToolContext): Promise<void>;
}

/**
 * The 2026-07-28 revision is served by the SDK's own v2 entry (createMcpHandler, `legacy: 'reject'`):
 * its validation ladder is the revision's MUSTs — the `_meta` envelope, `MCP-Protocol-Version` /
 * `Mcp-Method` / `Mcp-Name` cross-checks (400, -32020), an unsupported revision (400, -32022),
 * `server/discover`, `resultType` and cache fields on results — so they are not re-implemented here.
 * Our part: which requests go there (the SDK's own predicate), the same tools, and Koa ↔ fetch.
 * A server instance per request is the v2 entry's design; it holds nothing but the tool table.
 */
export function createModernLeg(log: Logger, tools: McpTool[], listed: Tool[], maxBodyBytes: number): ModernLeg {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const toolContext = authInfo?.extra?.toolContext as ToolContext;
      const server = new ServerV2(
        { name: 'svc', title: 'svc agent platform', version: VERSION },
        {
          capabilities: { tools: { listChanged: false } },
          instructions: SERVER_INSTRUCTIONS,
          cacheHints: { 'tools/list': TOOLS_LIST_CACHE },
        },
      );
      server.setRequestHandler('tools/list', async (request) => {
        if ((request.params as { cursor?: unknown } | undefined)?.cursor !== undefined) {
          throw Object.assign(
            new Error(
              'Invalid cursor: tools/list returns every tool on one page and issues no cursor; call it without one.',
            ),
            { code: RpcCode.InvalidParams },
          );
        }
        return { tools: visibleTools(listed, toolContext.keyAuth) } as never;
      });
      server.setRequestHandler('tools/call', async (request) => {
        const tool = byName.get(request.params.name);
        if (!tool)
          throw Object.assign(
            new Error(`Unknown tool: '${request.params.name}'. Available tools: ${[...byName.keys()].join(', ')}.`),
            { code: RpcCode.InvalidParams },
          );
        // The endpoint refuses a call outside the key's scopes with a 403 first; this is the same check for anything that gets past it.
        const verdict = toolVerdict(toolContext.keyAuth, tool.name, request.params.arguments, toolContext.now());
        if (!verdict.allowed)
          throw Object.assign(new Error(verdict.message ?? 'Refused.'), { code: INSUFFICIENT_SCOPE_RPC });
        return (await runTool(tool, request.params.arguments, toolContext, log)) as never;
      });
      return server;
    },
    {
      legacy: 'reject',
      responseMode: 'auto',
      maxRequestBodySize: maxBodyBytes, // Refusals are answered to the client (400 with the reason); they are its mistakes, not ours to log.
      onerror: () => undefined,
    },
  );

  return {
    async claims(ctx, body) {
      // A cheap look first (this runs on every POST): no modern header and no envelope claim in the
      // body means 2025-era. Anything else is decided by the SDK's own predicate, so the two legs
      // can never disagree with the entry about a request.
      const header = ctx.get('MCP-Protocol-Version');
      if (!(header >= MODERN_REVISION) && !hasEnvelopeClaim(body)) return false;
      return !(await isLegacyRequest(toRequest(ctx, null), body, { maxRequestBodySize: maxBodyBytes }));
    },
    async serve(ctx, raw, body, toolContext) {
      const authInfo = { token: '', clientId: toolContext.keyAuth.limitId, scopes: [], extra: { toolContext } };
      const response = await handler.fetch(toRequest(ctx, raw), { authInfo, parsedBody: body });
      ctx.status = response.status;
      for (const [name, value] of response.headers) if (name !== 'content-length') ctx.set(name, value);
      const text = await response.text();
      ctx.body = text === '' ? null : text;
      if (text === '') ctx.status = response.status;
    },
  };
}

function hasEnvelopeClaim(body: unknown): boolean {
  // Presence is the claim (a malformed value is the modern leg's -32602 to answer, not a 2025 request).
  const claims = (m: unknown) => {
    const meta = (m as { params?: { _meta?: unknown } } | null)?.params?._meta;
    return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META in meta;
  };
  return Array.isArray(body) ? body.some(claims) : claims(body);
}

/** The Koa request as a fetch Request (the v2 entry's face); the body is the bytes already read. */
function toRequest(ctx: Context, raw: Buffer | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${ctx.host || 'localhost'}${ctx.originalUrl}`, {
    method: ctx.method,
    headers,
    body: raw && ctx.method === 'POST' ? new Uint8Array(raw) : null,
  });
}
