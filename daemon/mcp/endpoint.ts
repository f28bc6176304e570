import type { Context, Middleware } from 'koa';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import type { KeyAuth } from '../access/key-guard.js';
import type { Verdict } from '../access/permission.js';
import { ApiError } from '../http/api-error.js';
import { readRaw } from '../http/body.js';
import type { CompanyServices } from '../company/index.js';
import { answerBatch, batchRefusal } from './batch.js';
import {
  checkAccept,
  checkContentType,
  checkProtocolVersion,
  checkProtocolVersionShape,
  refuseOtherMethods,
} from './http-rules.js';
import { checkRequest, classify, parseBody, rpcError } from './jsonrpc.js';
import { createModernLeg } from './modern-serve.js';
import { createMcpDispatcher } from './server.js';
import { describeTool } from './tool-runner.js';
import { createToolCallLimit, rateLimitMessage } from '../access/tool-call-limit.js';
import { scopeChallenge, scopeRefusal, toolCallVerdict } from './tool-access.js';
import { ALL_TOOLS } from './tools/index.js';
import { answerOf, noteToolCall, toolCallScope } from '../audit/tool-calls.js';
import { runInCall } from '../call-origin.js';
import type { ToolContext } from './tools/types.js';

export interface McpEndpointOptions {
  /** The Company runtime a key's tools act on; default: `deps.runtimes.open(keyAuth.company)`. */
  services?: (keyAuth: KeyAuth) => Promise<CompanyServices>;
}

/**
 * POST /api/mcp: MCP over Streamable HTTP, stateless, answering JSON. Two eras side by side, the
 * request decides: a 2026-07-28 request (a `_meta` envelope, no initialize) goes to the SDK v2
 * entry (modern-serve.ts); everything else — initialize and the 2025-11-25 … 2024-10-07 revisions —
 * to the daemon's one v1 SDK Server (server.ts). The Origin check and the key guard run before
 * this (routes.ts); it expects `ctx.state.keyAuth` and the raw body (app.ts lets /api/mcp pass
 * the JSON parser so a body that does not parse gets a JSON-RPC parse error, not our REST 400).
 */
export function mcpEndpoint(
  deps: Pick<Deps, 'config' | 'runtimes' | 'log' | 'clock' | 'stores'>,
  options: McpEndpointOptions = {},
): Middleware {
  const dispatcher = createMcpDispatcher(deps.log);
  const modern = createModernLeg(deps.log, ALL_TOOLS, ALL_TOOLS.map(describeTool), deps.config.limits.bodyBytes);
  const limit = createToolCallLimit(deps.stores.limits, deps.clock, deps.config.mcpToolCallsPerMinute);
  const openServices = options.services ?? (async (k: KeyAuth) => (await deps.runtimes.open(k.company)).services);
  const toolNames = new Set(ALL_TOOLS.map((t) => t.name));

  return async function serveMcp(ctx: Context) {
    refuseOtherMethods(ctx);
    checkAccept(ctx);
    checkContentType(ctx);
    checkProtocolVersionShape(ctx);
    const keyAuth = ctx.state.keyAuth as KeyAuth | undefined;
    if (!keyAuth)
      throw new ApiError(401, ErrorCode.unauthorized, 'Send a secret key or an access token: Authorization: Bearer …');

    const raw = ctx.request.rawBody ?? (await readRaw(ctx, deps.config.limits.bodyBytes));
    const parsed = parseBody(raw);
    if (!parsed.ok) return answer(ctx, 400, parsed.error);
    let services: Promise<CompanyServices> | undefined;
    const toolContext: ToolContext = {
      keyAuth,
      services: () => (services ??= openServices(keyAuth)),
      now: deps.clock.now,
    };

    const started = deps.clock.now();
    // Every tools/call is noted for the audit trail (daemon/audit/trail.ts), refusals included.
    const note = (m: unknown, end: Parameters<typeof noteToolCall>[4], scope?: Parameters<typeof noteToolCall>[5]) =>
      noteToolCall(ctx, m, started, deps.clock.now(), end, scope);
    // A tool call runs in its call scope: the events it appends carry who called (call-origin.ts).
    const inCall = <T>(m: unknown, run: () => Promise<T>) => {
      const scope = toolCallScope(ctx, keyAuth, m);
      return { scope, done: scope ? runInCall(scope, run) : run() };
    };
    if (await modern.claims(ctx, parsed.value)) {
      const refused = toolCallVerdict(keyAuth, parsed.value, toolNames, deps.clock.now());
      if (refused && !refused.allowed) {
        note(parsed.value, { reason: 'insufficient_scope' });
        return refuseScope(ctx, (parsed.value as JSONRPCRequest).id, refused);
      }
      const wait = countsAsToolCall(parsed.value) ? await limit.hit(keyAuth.limitId) : null;
      if (wait !== null) {
        note(parsed.value, { reason: 'rate_limited' });
        return refuseRate(ctx, (parsed.value as JSONRPCRequest).id, wait);
      }
      const call = inCall(parsed.value, () => modern.serve(ctx, raw, parsed.value, toolContext));
      await call.done;
      if (countsAsToolCall(parsed.value)) note(parsed.value, { answer: answerOf(ctx.body) }, call.scope);
      return;
    }

    const version = ctx.get('MCP-Protocol-Version');
    // One request for the rate limit: a batch counts each tools/call in it and answers those over the limit in-band.
    const answerOne = async (message: JSONRPCMessage, inBatch: boolean): Promise<JSONRPCMessage | null> => {
      if (!('method' in message) || !('id' in message)) return null; // notifications and responses: nothing to answer (see below)
      const request = message as JSONRPCRequest;
      // The scope first: a call the key may not make is refused before it counts against the rate limit.
      const verdict = toolCallVerdict(keyAuth, request, toolNames, deps.clock.now());
      if (verdict && !verdict.allowed) {
        note(request, { reason: 'insufficient_scope' });
        if (!inBatch) throw Object.assign(new Error('scope'), { verdict });
        return scopeRefusal(request.id, verdict);
      }
      const wait = countsAsToolCall(request) ? await limit.hit(keyAuth.limitId) : null;
      if (wait !== null) {
        note(request, { reason: 'rate_limited' });
        if (!inBatch) throw Object.assign(new Error('rate'), { wait });
        return rpcError(request.id, -32000, rateLimitMessage(wait), { retry_after: wait });
      }
      const invalid = checkRequest(request);
      const call = invalid ? null : inCall(request, () => dispatcher.request(request, toolContext));
      const response = invalid ?? (await call!.done);
      note(request, { answer: response }, call?.scope);
      return response;
    };

    if (Array.isArray(parsed.value)) {
      checkProtocolVersion(ctx);
      const refused = batchRefusal(version, parsed.value);
      if (refused) return answer(ctx, 400, refused);
      const answers = await answerBatch(parsed.value, (m) => answerOne(m, true));
      return answers.length === 0 ? accepted(ctx) : answer(ctx, 200, answers);
    }
    const message = classify(parsed.value);
    if (message.kind === 'invalid') return answer(ctx, 400, message.error);
    if (!(message.kind === 'request' && message.message.method === 'initialize')) checkProtocolVersion(ctx);
    // Notifications (initialized, cancelled) and responses have nothing to answer: 202, no body.
    // They are not handed to the shared Server: it would match a `notifications/cancelled` or a
    // response by id against requests of *other* callers (ids are renumbered per server, not per
    // key), and this stateless endpoint has no per-client state for `initialized` to change.
    if (message.kind !== 'request') return accepted(ctx);
    try {
      answer(ctx, 200, await answerOne(message.message, false));
    } catch (err) {
      const { wait, verdict } = err as { wait?: number; verdict?: Verdict };
      if (verdict) return refuseScope(ctx, message.message.id, verdict);
      if (wait === undefined) throw err;
      refuseRate(ctx, message.message.id, wait);
    }
  };
}

const countsAsToolCall = (m: unknown) =>
  (m as { method?: unknown } | null)?.method === 'tools/call' && (m as { id?: unknown }).id !== undefined;

/** 429 with Retry-After, and a JSON-RPC error body so an MCP client can match it to its request. */
function refuseRate(ctx: Context, id: JSONRPCRequest['id'], wait: number): void {
  ctx.set('Retry-After', String(wait));
  answer(ctx, 429, rpcError(id ?? null, -32000, rateLimitMessage(wait), { retry_after: wait }));
}

/**
 * The MCP authorization spec's step-up answer: HTTP 403 with a Bearer challenge naming the scope,
 * and a JSON-RPC error (naming it too) so the client can match the refusal to its request.
 */
function refuseScope(ctx: Context, id: JSONRPCRequest['id'], verdict: Verdict): void {
  ctx.set('WWW-Authenticate', scopeChallenge(verdict));
  answer(ctx, 403, scopeRefusal(id ?? null, verdict));
}

function accepted(ctx: Context): void {
  ctx.body = null;
  ctx.status = 202;
}

function answer(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
}
