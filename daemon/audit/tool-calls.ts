import type { Context } from 'koa';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { digestArguments, type ArgumentDigest } from './digest.js';

/** One tools/call as the audit trail records it (trail.ts writes the entries; the MCP endpoint notes them). */
export interface AuditedToolCall {
  tool: string;
  action: string | null;
  args: ArgumentDigest | null;
  outcome: 'succeeded' | 'refused';
  reason: string | null;
  ms: number;
}

/** The calls of this request, on `ctx.state.auditedToolCalls`, made once per request that has one. */
export function auditedCalls(ctx: Context): AuditedToolCall[] {
  ctx.state.auditedToolCalls ??= [];
  return ctx.state.auditedToolCalls as AuditedToolCall[];
}

const isToolCall = (m: unknown): m is { params: { name?: unknown; arguments?: unknown } } =>
  (m as { method?: unknown } | null)?.method === 'tools/call';

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
  auditedCalls(ctx).push({
    tool: typeof message.params?.name === 'string' ? message.params.name : '?',
    action: typeof action === 'string' ? action : null,
    args: digestArguments(args),
    outcome: reason === null ? 'succeeded' : 'refused',
    reason,
    ms: Math.max(0, endedMs - startedMs),
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
