import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NO_SECRET_KEY } from '../../mcp/explain.js';
import { resolveMcpKeys } from '../../mcp/keys.js';
import { runRelay } from '../../mcp/relay.js';
import { createUpstream } from '../../mcp/upstream.js';

/**
 * `svc mcp`: a stdio MCP server that relays to {SVC_URL}/api/mcp. stdout carries JSON-RPC lines
 * and nothing else (an MCP client reads every line of it), so all talk goes to stderr.
 */
export async function run(_flags: Record<string, unknown>, ctx: CliContext): Promise<void> {
  const keys = await resolveMcpKeys(ctx);
  if (!keys.secretKey) ctx.err(`svc mcp: ${NO_SECRET_KEY}`);
  else ctx.err(`svc mcp: relaying stdio to ${ctx.url()}/api/mcp${keys.accountKey ? ' (with the account key)' : ''}`);
  // The MCP client closing our stdout (EPIPE) is how a session often ends: note it, do not crash.
  ctx.io.stdout.on('error', (err: Error) => ctx.err(`svc mcp: stdout closed (${err.message})`));
  const upstream = keys.secretKey ? createUpstream(ctx.url(), { ...keys, secretKey: keys.secretKey }) : null;
  await runRelay(
    { stdin: ctx.io.stdin, stdout: ctx.io.stdout, log: (line) => ctx.err(line) },
    { url: ctx.url(), upstream, missingKey: NO_SECRET_KEY },
  );
}

/** The parent `mcp` command: runs the relay itself, and holds `call` and `tools`. */
export function mcpCommand(makeCtx: ContextFactory, subcommands: Command[]): Command {
  const cmd = new Command('mcp')
    .description(
      'MCP: run a stdio MCP server relaying to the platform (for Claude Desktop, the MCP Inspector), or make one call',
    )
    .addHelpText(
      'after',
      '\nKeys come from SVC_SECRET_KEY / SVC_ACCOUNT_KEY, else from the ones `svc keys create` stored; never from arguments.',
    );
  for (const sub of subcommands) cmd.addCommand(sub);
  return action(cmd, makeCtx, (ctx, flags) => run(flags, ctx));
}
