import { ErrorCode } from '../../shared/errors.js';
import type { Operation } from '../access/permission.js';
import { TOOL_SCOPES } from '../access/operation-scopes.js';
import { companyRoutePattern } from '../companies/route-pattern.js';
import { invalid } from '../domain-error.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An operation as a person writes it for `explain`: `tools/call events trigger` (an MCP tool and
 * its action) or `POST /api/events/trigger` (a Company route, found by the tenant router's own
 * matcher, so `/api/events/evt_1` is the `/api/events/:id` route). Anything else is a 400 saying
 * what would be understood.
 */
export function parseOperation(text: string): Operation {
  const words = text.trim().split(/\s+/);
  if (words[0] === 'tools/call') return toolOperation(words.slice(1));
  const method = words[0]?.toUpperCase() ?? '';
  if (METHODS.has(method) && words.length === 2) {
    const path = words[1]!.split('?')[0]!;
    const route = path.startsWith('/') ? companyRoutePattern(method, path) : null;
    if (!route)
      throw invalid(
        `No Company route answers ${method} ${path}: explain covers the Company routes (agents, sessions, quests, messages, events, detectors, questions, channels).`,
        ErrorCode.unknownOperation,
      );
    return { kind: 'rest', method, route };
  }
  throw invalid(
    `Cannot read the operation '${text}': write an MCP call as "tools/call <tool> [<action>]" or a route as "<METHOD> <path>", e.g. "POST /api/events/trigger".`,
    ErrorCode.unknownOperation,
  );
}

function toolOperation([tool, action, ...rest]: string[]): Operation {
  const entry = tool === undefined ? undefined : TOOL_SCOPES[tool];
  if (tool === undefined || entry === undefined)
    throw invalid(
      `Unknown tool '${tool ?? ''}': the tools are ${Object.keys(TOOL_SCOPES).join(', ')}.`,
      ErrorCode.unknownOperation,
    );
  const actions = entry && typeof entry === 'object' ? Object.keys(entry) : [];
  if (
    rest.length > 0 ||
    (actions.length === 0 && action !== undefined) ||
    (actions.length > 0 && !actions.includes(action ?? ''))
  )
    throw invalid(
      actions.length > 0
        ? `The tool ${tool} takes an action: one of ${actions.join(', ')} ("tools/call ${tool} ${actions[0]}").`
        : `The tool ${tool} has no actions: write "tools/call ${tool}".`,
      ErrorCode.unknownOperation,
    );
  return { kind: 'mcp', tool, ...(action !== undefined ? { action } : {}) };
}

/** The operation as text again (what the answer echoes). */
export function describeOperation(op: Operation): string {
  if (op.kind === 'rest') return `${op.method} ${op.route}`;
  if (op.kind === 'mcp')
    return ['tools/call', op.tool, ...(typeof op.action === 'string' ? [op.action] : [])].join(' ');
  return 'authenticate';
}
