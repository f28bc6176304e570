import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { companyPath, resolveMember } from './people.js';

/** `svc companies transfer <member> [--company C]`: they become the owner, you an admin. */
export async function runCompaniesTransfer(opts: { member: string; company?: string }, ctx: CliContext): Promise<void> {
  const base = await companyPath(ctx, opts.company);
  const member = await resolveMember(ctx, base, opts.member);
  const answer = await ctx.api().post(`${base}/transfer`, { user_id: member.user_id });
  if (ctx.json) return ctx.printJson(answer);
  ctx.out(`${member.email ?? member.user_id} now owns the Company; you are an admin of it.`);
}

export function companiesTransferCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('transfer')
    .description('hand the ownership of a Company to a member')
    .argument('<member>', 'the member: e-mail or user id')
    .option('--company <company>', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, flags: { company?: string }, member: string) =>
    runCompaniesTransfer({ ...flags, member }, ctx),
  );
}
