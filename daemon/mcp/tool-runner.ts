import * as z from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../http/api-error.js';
import { DomainError } from '../domain-error.js';
import type { Logger } from '../logger.js';
import type { McpTool, ToolContext } from './tools/types.js';

/** A tool as tools/list shows it: its zod input turned into JSON Schema once, at start-up. */
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
    ...(tool.output ? { outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

/**
 * Runs one tool call. Per MCP 2025-11-25, bad arguments and a failing tool are tool results with
 * `isError: true` (the model reads the message and can correct itself), not JSON-RPC errors.
 * A service's DomainError (or a 4xx ApiError) carries a message written for the caller; anything else is a bug,
 * logged here and reported without its details.
 */
export async function runTool(tool: McpTool, args: unknown, ctx: ToolContext, log: Logger): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(`Invalid arguments for tool '${tool.name}': ${describeIssues(parsed.error)}`);
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

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(arguments)'}: ${i.message}`).join('; ');
}
