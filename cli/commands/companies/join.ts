import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';

/** `svc companies join <code>`: accepts an invitation with your own login (it must be the invited address). */
export async function runCompaniesJoin(opts: { code: string }, ctx: CliContext): Promise<void> {
  const answer = await ctx
    .api()
    .post<{ company: { id: string; name: string }; role: string }>('/api/invitations/accept', { code: opts.code });
  if (ctx.json) return ctx.printJson(answer);
  ctx.out(`You joined ${answer.company.name} (${answer.company.id}) as ${answer.role}.`);
  ctx.out(`Use it with 'svc companies use ${answer.company.id}'.`);
}

export function companiesJoinCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('join')
    .description('accept an invitation to a Company')
    .argument('<code>', 'the code from the invitation e-mail');
  return action(cmd, makeCtx, (ctx, _flags, code: string) => runCompaniesJoin({ code }, ctx));
}
