import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey, saveCurrentCompany } from '../../company.js';
import type { CliContext } from '../../context.js';
import { companyCreatedResponse } from '../../../shared/schemas/companies.js';

/** `svc companies create <name>`; the first Company also becomes the current one (like `svc companies use`). */
export async function runCompaniesCreate(opts: { name: string }, ctx: CliContext): Promise<void> {
  const company = await ctx.api().post('/api/companies', { name: opts.name }, { schema: companyCreatedResponse });
  const current = !ctx.config().get(currentCompanyKey(ctx.scope));
  if (current) saveCurrentCompany(ctx, { id: company.id, name: company.name });
  if (ctx.json) return ctx.printJson({ ...company, current });
  ctx.out(`Created Company ${company.name} (${company.id})`);
  if (current) ctx.out(`${company.name} is now your current Company (change it with 'svc companies use <name>')`);
}

export function companiesCreateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('create')
    .description('create a Company')
    .argument('<name>', 'the Company name (unique among yours)');
  return action(cmd, makeCtx, (ctx, _flags, name: string) => runCompaniesCreate({ name }, ctx));
}
