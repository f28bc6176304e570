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
 * MCP tool annotations, all four always set: a client that reads them (to skip a confirmation for a
 * read, or to warn before a destructive call) must never be left to the spec's defaults, which
 * assume the worst for three of them and the opposite of svc's tools for the fourth (openWorld).
 */
export interface ToolAnnotations {
  /** Nothing in the Company changes, not even a log line. */
  readOnlyHint: boolean;
  /** A call may overwrite or remove something, itself or through the configured events it makes fire. */
  destructiveHint: boolean;
  /** The same call again changes nothing more. */
  idempotentHint: boolean;
  /** The tool reaches outside the daemon's Company runtime. */
  openWorldHint: boolean;
}

/**
 * One MCP tool. `input` is a strict zod object: its JSON Schema is what tools/list shows, and it
 * validates the arguments (an unknown one included) before `run` sees them. `run` returns a JSON
 * object (the structured result, of the `output` shape); a DomainError it throws becomes an
 * `isError` result with the error's message.
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The structured result's shape, shown as `outputSchema` (clients validate structuredContent against it). */
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: z.infer<S>, ctx: ToolContext): Promise<Record<string, unknown>>;
}

/** Keeps the schema's type attached to `run` while the list of tools stays one array. */
export const defineTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool => tool as unknown as McpTool;

/** A tool that only reads: no write, so each call is idempotent and destroys nothing. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
