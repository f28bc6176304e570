import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey } from '../../company.js';
import type { CliContext } from '../../context.js';
import { companyListResponse } from '../../../shared/schemas/companies.js';
import { formatTable, shortTime } from '../../table.js';

/** `svc companies list`: those you own or belong to, with your role; the current one marked with `*`. */
export async function runCompaniesList(_opts: object, ctx: CliContext): Promise<void> {
  const { companies } = await ctx.api().get('/api/companies', { schema: companyListResponse });
  const currentId = ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope))?.id;
  if (ctx.json) return ctx.printList(companies.map((c) => ({ ...c, current: c.id === currentId })));
  if (companies.length === 0) {
    ctx.err("no Companies yet: create one with 'svc companies create <name>'");
    return;
  }
  const rows = companies.map((c) => [
    c.id === currentId ? '*' : '',
    c.name,
    c.id,
    c.role ?? 'owner',
    shortTime(c.created_at),
  ]);
  formatTable(['', 'NAME', 'ID', 'ROLE', 'CREATED'], rows).forEach((l) => {
    ctx.out(l);
  });
}

export function companiesListCommand(makeCtx: ContextFactory): Command {
  return action(new Command('list').description('list your Companies'), makeCtx, (ctx) => runCompaniesList({}, ctx));
}
