import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { resolveCompanyId, saveCurrentCompany } from '../../company.js';
import type { CliContext } from '../../context.js';
import { companyRefListResponse } from '../../../shared/schemas/companies.js';

/** `svc companies use <name|id>`: the Company runtime commands act on from now on (for this daemon URL). */
export async function runCompaniesUse(opts: { company: string }, ctx: CliContext): Promise<void> {
  const id = await resolveCompanyId(ctx, opts.company);
  const { companies } = await ctx.api().get('/api/companies', { schema: companyRefListResponse });
  const company = companies.find((c) => c.id === id)!;
  saveCurrentCompany(ctx, { id: company.id, name: company.name });
  if (ctx.json) return ctx.printJson({ ok: true, current: { id: company.id, name: company.name } });
  ctx.out(`Now using Company ${company.name} (${company.id})`);
}

export function companiesUseCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('use')
    .description('choose the current Company')
    .argument('<company>', 'a Company name or id');
  return action(cmd, makeCtx, (ctx, _flags, company: string) => runCompaniesUse({ company }, ctx));
}
