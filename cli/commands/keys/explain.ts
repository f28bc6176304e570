import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { keyExplainResponse } from '../../../shared/schemas/key-access.js';

/**
 * `svc keys explain <id> <operation>`: what a request with this key would be answered, without
 * making it: the daemon runs its one permission check on the key as stored now.
 */
export async function runKeysExplain(opts: { id: string; operation: string }, ctx: CliContext): Promise<void> {
  const verdict = await ctx
    .api()
    .post(
      `/api/keys/${encodeURIComponent(opts.id)}/explain`,
      { operation: opts.operation },
      { schema: keyExplainResponse },
    );
  if (ctx.json) return ctx.printJson(verdict);
  if (verdict.allowed) ctx.out(`allowed: ${verdict.operation} with key ${opts.id}`);
  else {
    ctx.out(
      `refused (${verdict.rule}${verdict.required_scope ? `: needs ${verdict.required_scope}` : ''}): ${verdict.operation}`,
    );
    if (verdict.message) ctx.out(verdict.message);
  }
}

export function keysExplainCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('explain')
    .description("say whether a key may do an operation, and why (runs the daemon's check; does nothing)")
    .argument('<id>', 'the key id (key_…, from svc keys list)')
    .argument('<operation...>', 'an MCP call ("tools/call events trigger") or a route ("POST /api/events/trigger")');
  return action(cmd, makeCtx, (ctx, _flags, id: string, operation: string[]) =>
    runKeysExplain({ id, operation: operation.join(' ') }, ctx),
  );
}
