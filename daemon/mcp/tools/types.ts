import type * as z from 'zod';
import type { KeyAuth } from '../../access/key-guard.js';
import type { CompanyServices } from '../../company/index.js';

/** What a tool gets: who calls (the key's user and Company) and that Company's runtime, opened on first use. */
export interface ToolContext {
  keyAuth: KeyAuth;
  services(): Promise<CompanyServices>;
  /** The daemon's clock (a fake one in tests), for what is computed when shown (a schedule's next runs). */
  now(): number;
}

/**
 * One MCP tool. `input` is a zod object: its JSON Schema is what tools/list shows, and it
 * validates the arguments before `run` sees them. `run` returns a JSON object (the structured
 * result); a DomainError it throws becomes an `isError` result with the error's message.
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The structured result's shape, shown as `outputSchema` (clients validate structuredContent against it). */
  output?: z.ZodObject;
  /** MCP tool annotations: hints for clients (read-only, destructive). */
  annotations?: {
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  run(args: z.infer<S>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Keeps the schema's type attached to `run` while the list of tools stays one array. */
export const defineTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool => tool as unknown as McpTool;
