import * as z from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../http/api-error.js';
import { DomainError } from '../domain-error.js';
import type { Logger } from '../logger.js';
import type { McpTool, ToolContext } from './tools/types.js';

/** A tool as tools/list shows it: its zod schemas turned into JSON Schema once, at start-up. */
export function describeTool(tool: McpTool): Tool {
  const jsonSchema = (s: z.ZodObject, io: 'input' | 'output') => {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    return { ...schema, type: 'object' };
  };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as Tool['inputSchema'],
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    annotations: { ...tool.annotations },
  };
}

/**
 * Runs one tool call. Per MCP 2025-11-25, bad arguments and a failing tool are tool results with
 * `isError: true` (the model reads the message and can correct itself), not JSON-RPC errors.
 * A service's DomainError (or a 4xx ApiError) carries a message written for the caller; anything else is a bug,
 * logged here and reported without its details.
 */
export async function runTool(tool: McpTool, args: unknown, ctx: ToolContext, log: Logger): Promise<CallToolResult> {
  // One parse, strict: an argument the tool does not know is refused, never ignored (a misspelt
  // filter would otherwise widen a read to everything).
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success)
    return errorResult(`Invalid arguments for tool '${tool.name}': ${describeIssues(tool, parsed.error)}`);
  try {
    const result = await tool.run(parsed.data, ctx);
    // Compact JSON: the text block is for clients that ignore structuredContent, and indentation only costs tokens and bytes.
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    if (err instanceof DomainError || (err instanceof ApiError && err.status < 500)) return errorResult(err.message);
    log.error('mcp tool failed', { tool: tool.name, company_id: ctx.keyAuth.company.id, err });
    return errorResult(`The tool '${tool.name}' failed unexpectedly; the daemon logged the details.`);
  }
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Each issue with where it is; an unknown argument also gets the list of the ones that exist there. */
function describeIssues(tool: McpTool, error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const at = i.path.map(String).join('.');
      if (i.code !== 'unrecognized_keys') return `${at || '(arguments)'}: ${i.message}`;
      const unknown = i.keys.map((k) => `'${k}'`).join(', ');
      const allowed = Object.keys(objectAt(tool.input, i.path)?.shape ?? {});
      return `${at ? `${at}: unknown field` : 'unknown argument'}${i.keys.length > 1 ? 's' : ''} ${unknown}; allowed: ${allowed.join(', ') || 'none'}.`;
    })
    .join('; ');
}

/** The zod object an issue's path points into (a tool call inside `tool_calls`, say), for its field names. */
function objectAt(schema: z.ZodType, path: PropertyKey[]): z.ZodObject | undefined {
  let at: z.ZodType | undefined = schema;
  for (const step of path) {
    at = unwrap(at);
    if (at instanceof z.ZodObject) at = at.shape[String(step)] as z.ZodType | undefined;
    else if (at instanceof z.ZodArray) at = at.element as z.ZodType;
    else return undefined;
  }
  at = unwrap(at);
  return at instanceof z.ZodObject ? at : undefined;
}

const unwrap = (s: z.ZodType | undefined): z.ZodType | undefined => {
  let at = s;
  while (at instanceof z.ZodOptional || at instanceof z.ZodDefault || at instanceof z.ZodNullable)
    at = at.unwrap() as z.ZodType;
  return at;
};
