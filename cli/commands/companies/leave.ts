import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { companyPath, describeKeys } from './people.js';

/** `svc companies leave [company]`: anyone but the owner, who transfers first. */
export async function runCompaniesLeave(opts: { company?: string }, ctx: CliContext): Promise<void> {
  const base = await companyPath(ctx, opts.company);
  const answer = await ctx.api().post<{ keys: Array<{ id: string; name: string }> }>(`${base}/leave`, {});
  if (ctx.json) return ctx.printJson(answer);
  ctx.out('You left the Company.');
  if (answer.keys.length) ctx.out(`The keys you made stay with it: ${describeKeys(answer.keys)}.`);
}

export function companiesLeaveCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('leave')
    .description('leave a Company (the owner transfers it first)')
    .argument('[company]', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, _flags, company?: string) => runCompaniesLeave({ company }, ctx));
}
