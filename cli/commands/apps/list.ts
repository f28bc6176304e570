import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { oauthGrantListResponse } from '../../../shared/schemas/oauth.js';
import { formatTable, shortTime } from '../../table.js';

/** `svc apps list`: the MCP clients you signed in to over OAuth (one row per grant). */
export async function runAppsList(ctx: CliContext): Promise<void> {
  const { grants } = await ctx.api().get('/api/oauth/grants', { schema: oauthGrantListResponse });
  if (ctx.json) return ctx.printList(grants);
  if (grants.length === 0) {
    ctx.err('no connected apps: an MCP client appears here once you allow it on the consent page');
    return;
  }
  const rows = grants.map((g) => [
    g.id,
    g.client.name ?? g.client.id,
    g.company_name ?? g.company_id,
    g.scopes.join(','),
    shortTime(g.created_at),
    shortTime(g.last_used_at),
  ]);
  for (const line of formatTable(['ID', 'APP', 'COMPANY', 'SCOPES', 'CONNECTED', 'LAST USED'], rows)) ctx.out(line);
}

export function appsListCommand(makeCtx: ContextFactory): Command {
  return action(
    new Command('list').description('list the apps (MCP clients) you connected over OAuth'),
    makeCtx,
    (ctx) => runAppsList(ctx),
  );
}
