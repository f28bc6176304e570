import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { openMcpSession } from '../../mcp/one-shot.js';

/** `svc mcp tools`: the tools the platform offers to this key (tools/list, every page). */
export async function run(_flags: Record<string, unknown>, ctx: CliContext): Promise<void> {
  const session = await openMcpSession(ctx);
  const tools: { name: string; description?: string; inputSchema?: unknown }[] = [];
  let cursor: string | undefined;
  try {
    do {
      const page = await session.request('tools/list', cursor ? { cursor } : undefined);
      tools.push(...(page?.tools ?? []));
      cursor = page?.nextCursor;
    } while (cursor);
  } finally {
    await session.close();
  }
  if (ctx.json) return ctx.printJson({ tools });
  const width = Math.max(...tools.map((t) => t.name.length), 4);
  for (const t of tools) ctx.out(`${t.name.padEnd(width)}  ${(t.description ?? '').split('. ')[0]}`);
  if (tools.length === 0) ctx.out('(no tools)');
}

export function toolsCommand(makeCtx: ContextFactory): Command {
  return action(
    new Command('tools').description('list the MCP tools the platform offers to your key'),
    makeCtx,
    (ctx, flags) => run(flags, ctx),
  );
}
