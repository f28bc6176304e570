import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import type { KeyAuth } from '../gateway/seam.js';
import { ApiError } from '../http/api-error.js';
import { readRaw } from '../http/body.js';
import type { CompanyServices } from '../runtime/services.js';
import { checkAccept, checkContentType, checkOrigin, checkProtocolVersion, refuseOtherMethods } from './http-rules.js';
import { checkRequest, classify, parseBody } from './jsonrpc.js';
import { createMcpDispatcher } from './server.js';
import type { ToolContext } from './tools/types.js';

export interface McpEndpointOptions {
  /** The Company runtime a key's tools act on; default: `deps.runtimes.open(keyAuth.company)`. */
  services?: (keyAuth: KeyAuth) => Promise<CompanyServices>;
  /** Browser origins allowed besides loopback and the daemon's public URL. */
  allowedOrigins?: string[];
}

/**
 * POST /api/mcp: MCP over Streamable HTTP (protocol 2025-11-25 and the older revisions the SDK
 * negotiates), in stateless JSON-response mode. It expects `ctx.state.keyAuth` from the key guard
 * mounted before it, and the raw body (app.ts lets /api/mcp pass the JSON parser so that a body
 * that does not parse gets a JSON-RPC parse error rather than our REST 400).
 */
export function mcpEndpoint(deps: Pick<Deps, 'config' | 'runtimes' | 'log' | 'clock'>, options: McpEndpointOptions = {}): Middleware {
  const dispatcher = createMcpDispatcher(deps.log);
  const openServices = options.services ?? (async (k: KeyAuth) => (await deps.runtimes.open(k.company)).services);
  const origins = new Set([new URL(deps.config.publicUrl).origin, ...(options.allowedOrigins ?? []), ...(deps.config.mcpAllowedOrigins ?? [])]);

  return async function serveMcp(ctx: Context) {
    checkOrigin(ctx, origins);
    refuseOtherMethods(ctx);
    checkAccept(ctx);
    checkContentType(ctx);
    const keyAuth = ctx.state.keyAuth as KeyAuth | undefined;
    if (!keyAuth) throw new ApiError(401, ErrorCode.unauthorized, 'Send a secret key: Authorization: Bearer sk_…');

    const raw = ctx.request.rawBody ?? (await readRaw(ctx, deps.config.limits.bodyBytes));
    const parsed = parseBody(raw);
    if (!parsed.ok) return answer(ctx, 400, parsed.error);
    const message = classify(parsed.value);
    if (message.kind === 'invalid') return answer(ctx, 400, message.error);
    if (!(message.kind === 'request' && message.message.method === 'initialize')) checkProtocolVersion(ctx);

    if (message.kind !== 'request') {
      // Notifications (initialized, cancelled) and responses have nothing to answer: 202, no body.
      // They are not handed to the shared Server: it would match a `notifications/cancelled` or a
      // response by id against requests of *other* callers (ids are renumbered per server, not per
      // key), and this stateless endpoint has no per-client state for `initialized` to change.
      ctx.body = null;
      ctx.status = 202;
      return;
    }
    const refused = checkRequest(message.message);
    let services: Promise<CompanyServices> | undefined;
    const toolContext: ToolContext = { keyAuth, services: () => (services ??= openServices(keyAuth)), now: deps.clock.now };
    answer(ctx, 200, refused ?? (await dispatcher.request(message.message, toolContext)));
  };
}

function answer(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
}
