import { currentCompanyKey } from '../company.js';
import type { CliContext } from '../context.js';
import { accounts } from '../credentials/index.js';

export interface McpKeys {
  secretKey: string | null;
  accountKey: string | null;
}

/**
 * The keys the relay sends. The environment wins (an MCP client's config sets it); else the keys
 * `svc keys create` and `svc account-key rotate` stored for this daemon URL, the secret key being
 * the current Company's. Never from arguments: those show up in `ps` and shell history.
 */
export async function resolveMcpKeys(ctx: CliContext): Promise<McpKeys> {
  const url = ctx.url();
  let secretKey = ctx.env.SVC_SECRET_KEY || null;
  if (!secretKey) {
    const company = ctx.config().get<{ id: string }>(currentCompanyKey(url));
    if (company?.id) secretKey = await ctx.credentials().get(accounts.secretKey(url, company.id));
  }
  const accountKey = ctx.env.SVC_ACCOUNT_KEY || (await ctx.credentials().get(accounts.accountKey(url)));
  return { secretKey, accountKey };
}
