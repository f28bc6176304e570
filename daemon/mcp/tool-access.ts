import type { JSONRPCErrorResponse, JSONRPCRequest, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { KeyAuth } from '../access/key-guard.js';
import { keyPrincipal } from '../access/key-guard.js';
import { toolVisibleWith } from '../access/operation-scopes.js';
import { checkAccess, type Verdict } from '../access/permission.js';
import { rpcError } from './jsonrpc.js';

/** The JSON-RPC code of a tools/call refused for a missing scope (server-defined range; `data.code` names it). */
export const INSUFFICIENT_SCOPE_RPC = -32003;

/**
 * The scope check of a tools/call, from the permission check (access/permission.ts): null when
 * the message is no tools/call of a tool the daemon has (the server answers that itself), else
 * the verdict for the tool and its `action` argument.
 */
export function toolCallVerdict(
  keyAuth: KeyAuth,
  message: unknown,
  known: ReadonlySet<string>,
  nowMs: number,
): Verdict | null {
  const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
  if (m?.method !== 'tools/call' || typeof m.params?.name !== 'string' || !known.has(m.params.name)) return null;
  return toolVerdict(keyAuth, m.params.name, m.params.arguments, nowMs);
}

/** The verdict for calling `tool` with `args` (its `action` picks the scope). */
export function toolVerdict(keyAuth: KeyAuth, tool: string, args: unknown, nowMs: number): Verdict {
  const action = (args as { action?: unknown } | null | undefined)?.action;
  return checkAccess(keyPrincipal(keyAuth.user, keyAuth.key, keyAuth.ownerTier), { kind: 'mcp', tool, action }, nowMs);
}

/** The JSON-RPC error of a refused tools/call: it names the scope, as the HTTP challenge does. */
export function scopeRefusal(id: JSONRPCRequest['id'] | null, verdict: Verdict): JSONRPCErrorResponse {
  return rpcError(id, INSUFFICIENT_SCOPE_RPC, verdict.message ?? 'Refused.', {
    code: 'insufficient_scope',
    ...(verdict.required_scope ? { required_scope: verdict.required_scope } : {}),
  });
}

/** RFC 6750 §3.1 step-up: the scope a client should ask for, in the challenge of the 403. */
export const scopeChallenge = (verdict: Verdict) =>
  `Bearer realm="svc", error="insufficient_scope", scope="${verdict.required_scope ?? ''}", error_description="This key lacks the scope this call needs."`;

/**
 * tools/list for a key: only the tools it may call, where a tool with several actions is shown
 * when any action is allowed (the others are refused at call time). A key with every scope sees
 * the daemon's one list, unfiltered, at no cost.
 */
export function visibleTools(listed: Tool[], keyAuth: KeyAuth): Tool[] {
  const granted = keyAuth.key.scopes;
  if (granted == null) return listed;
  return listed.filter((tool) => {
    const needs = toolVisibleWith(tool.name);
    if (needs === undefined) return false; // no row: refused to every call, so not shown either
    return needs === null || needs.some((s) => granted.includes(s));
  });
}
