import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError, UsageError } from '../../errors.js';
import { openMcpSession } from '../../mcp/one-shot.js';

export interface CallFlags {
  params?: string;
}

/**
 * `svc mcp call <method> [--params JSON]`: one JSON-RPC call. Prints the result as JSON; for
 * tools/call the text the tool returned (the raw result with --json). A tool's `isError` result
 * is a failure: its text goes to stderr and the exit code is 1.
 */
export async function run(flags: CallFlags, ctx: CliContext, method: string): Promise<void> {
  const params = parseParams(flags.params);
  const session = await openMcpSession(ctx);
  // The session is opened with initialize already; calling it again would only repeat the answer.
  const result = await (method === 'initialize'
    ? Promise.resolve(session.initialized)
    : session.request(method, params)
  ).finally(() => session.close());
  const text = (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  if (ctx.json || method !== 'tools/call') ctx.printJson(result ?? {});
  else if (!result?.isError) ctx.out(prettyIfJson(text));
  if (result?.isError) throw new FailedError(`tool '${String(params?.name)}' failed: ${text}`);
}

/** Tools answer compact JSON text; a person reads it indented. */
function prettyIfJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function parseParams(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(
      `--params is not JSON: ${(err as Error).message}`,
      `e.g. --params '{"name":"whoami","arguments":{}}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--params must be a JSON object');
  return value as Record<string, unknown>;
}

export function callCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('call')
    .description('make one MCP call and print the result (e.g. tools/list, or tools/call with --params)')
    .argument('<method>', 'the JSON-RPC method: tools/list, tools/call, ping, …')
    .option('--params <json>', 'the params object, as JSON')
    .addHelpText(
      'after',
      `\nExample:\n  svc mcp call tools/call --params '{"name":"events","arguments":{"action":"list","limit":10}}'`,
    );
  return action(cmd, makeCtx, (ctx, flags, method: string) => run(flags as CallFlags, ctx, method));
}
