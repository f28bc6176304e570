import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { companyPath, describeKeys, resolveMember } from './people.js';

interface Removed {
  keys: Array<{ id: string; name: string }>;
}

/** `svc companies remove <member> [--company C]`: refused from their next request; the keys they made stay the Company's. */
export async function runCompaniesRemove(opts: { member: string; company?: string }, ctx: CliContext): Promise<void> {
  const base = await companyPath(ctx, opts.company);
  const member = await resolveMember(ctx, base, opts.member);
  const answer = await ctx.api().delete<Removed>(`${base}/members/${encodeURIComponent(member.user_id)}`);
  if (ctx.json) return ctx.printJson(answer);
  ctx.out(`Removed ${member.email ?? member.user_id} from the Company.`);
  if (answer.keys.length)
    ctx.out(
      `The keys they made still work (they are the Company's): ${describeKeys(answer.keys)}. Revoke with 'svc keys revoke <id>'.`,
    );
}

export function companiesRemoveCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('remove')
    .description('remove a member from a Company')
    .argument('<member>', 'the member: e-mail or user id')
    .option('--company <company>', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, flags: { company?: string }, member: string) =>
    runCompaniesRemove({ ...flags, member }, ctx),
  );
}
