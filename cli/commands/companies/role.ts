import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ASSIGNABLE_ROLES, type AssignableRole } from '../../../shared/roles.js';
import { companyPath, resolveMember } from './people.js';

/** `svc companies role <member> <role> [--company C]`: takes effect on their next request. */
export async function runCompaniesRole(
  opts: { member: string; role: string; company?: string },
  ctx: CliContext,
): Promise<void> {
  if (!ASSIGNABLE_ROLES.includes(opts.role as AssignableRole))
    throw new UsageError(
      `the role must be one of ${ASSIGNABLE_ROLES.join(', ')}`,
      "ownership moves with 'svc companies transfer <member>'",
    );
  const base = await companyPath(ctx, opts.company);
  const member = await resolveMember(ctx, base, opts.member);
  const answer = await ctx.api().patch(`${base}/members/${encodeURIComponent(member.user_id)}`, { role: opts.role });
  if (ctx.json) return ctx.printJson(answer);
  ctx.out(`${member.email ?? member.user_id} is now ${opts.role} (was ${member.role}), from their next request.`);
}

export function companiesRoleCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('role')
    .description("change a member's role")
    .argument('<member>', 'the member: e-mail or user id')
    .argument('<role>', ASSIGNABLE_ROLES.join(', '))
    .option('--company <company>', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, flags: { company?: string }, member: string, role: string) =>
    runCompaniesRole({ ...flags, member, role }, ctx),
  );
}
