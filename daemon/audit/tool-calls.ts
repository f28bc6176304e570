import type { Context } from 'koa';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { EventOrigin } from '../../shared/event-row.js';
import type { KeyAuth } from '../access/key-guard.js';
import { newCallScope, type CallScope } from '../call-origin.js';
import { digestArguments, type ArgumentDigest } from './digest.js';
import { readTraceparent } from './traceparent.js';

/** One tools/call as the audit trail records it (trail.ts writes the entries; the MCP endpoint notes them). */
export interface AuditedToolCall {
  tool: string;
  action: string | null;
  args: ArgumentDigest | null;
  outcome: 'succeeded' | 'refused';
  reason: string | null;
  ms: number;
  /** The W3C traceparent of the call's `_meta`; `invalid` when one was sent that is not one (and was ignored). */
  traceparent: string | null;
  traceparentInvalid: boolean;
  /** The events the call set off directly (the first ones, and how many), for the trace that starts at it. */
  events: string[];
  eventCount: number;
}

/** The calls of this request, on `ctx.state.auditedToolCalls`, made once per request that has one. */
export function auditedCalls(ctx: Context): AuditedToolCall[] {
  ctx.state.auditedToolCalls ??= [];
  return ctx.state.auditedToolCalls as AuditedToolCall[];
}

const isToolCall = (m: unknown): m is { params: { name?: unknown; arguments?: unknown } } =>
  (m as { method?: unknown } | null)?.method === 'tools/call';

const targetOf = (m: { params: { name?: unknown; arguments?: unknown } }) => {
  const tool = typeof m.params?.name === 'string' ? m.params.name : '?';
  const action = (m.params?.arguments as { action?: unknown } | undefined)?.action;
  return typeof action === 'string' ? `${tool}.${action}` : tool;
};

/** What the events a tools/call appends carry as their origin (call-origin.ts); undefined for other messages. */
export function toolCallScope(ctx: Context, key: KeyAuth, message: unknown): CallScope | undefined {
  if (!isToolCall(message)) return undefined;
  const trace = readTraceparent(message);
  const origin: EventOrigin = {
    action: 'mcp.tools_call',
    target: targetOf(message),
    request_id: (ctx.state.requestId as string | undefined) ?? null,
    actor: key.oauth
      ? {
          type: 'oauth',
          user_id: key.user.id,
          key_id: null,
          client_id: key.oauth.clientId,
          grant_id: key.oauth.grantId,
        }
      : { type: 'key', user_id: key.user.id, key_id: key.keyId, client_id: null, grant_id: null },
    traceparent: trace.kind === 'valid' ? trace.traceparent : null,
  };
  return newCallScope(() => origin);
}

/**
 * Notes a tools/call and how it ended: refused before it ran (scope, rate limit: `reason` given),
 * or from its JSON-RPC answer (an error, or a result with `isError`, is refused: it did not do
 * what was asked). The arguments are kept only as a digest.
 */
export function noteToolCall(
  ctx: Context,
  message: unknown,
  startedMs: number,
  endedMs: number,
  end: { reason: string } | { answer: JSONRPCMessage | unknown },
  scope?: CallScope,
): void {
  if (!isToolCall(message)) return;
  const args = message.params?.arguments;
  const action = (args as { action?: unknown } | undefined)?.action;
  let reason: string | null = 'reason' in end ? end.reason : null;
  if (!('reason' in end)) {
    const a = end.answer as { error?: { message?: string }; result?: { isError?: boolean } } | null;
    if (a?.error) reason = `rpc_error: ${String(a.error.message ?? '').slice(0, 200)}`;
    else if (a?.result?.isError) reason = 'tool_error';
  }
  if (scope) scope.open = false;
  const trace = readTraceparent(message);
  auditedCalls(ctx).push({
    tool: typeof message.params?.name === 'string' ? message.params.name : '?',
    action: typeof action === 'string' ? action : null,
    args: digestArguments(args),
    outcome: reason === null ? 'succeeded' : 'refused',
    reason,
    ms: Math.max(0, endedMs - startedMs),
    traceparent: trace.kind === 'valid' ? trace.traceparent : null,
    traceparentInvalid: trace.kind === 'invalid',
    events: scope ? [...scope.emitted] : [],
    eventCount: scope?.count ?? 0,
  });
}

/** The answer of the 2026-07-28 leg, read back from the body it wrote (text), for noteToolCall. */
export function answerOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
