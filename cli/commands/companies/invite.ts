import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ASSIGNABLE_ROLES, type AssignableRole } from '../../../shared/roles.js';
import { companyPath } from './people.js';

/** `svc companies invite <email> [--role R] [--company C]`: the code goes to the address by e-mail, never to the inviter. */
export async function runCompaniesInvite(
  opts: { email: string; role?: string; company?: string },
  ctx: CliContext,
): Promise<void> {
  const role = (opts.role ?? 'member') as AssignableRole;
  if (!ASSIGNABLE_ROLES.includes(role))
    throw new UsageError(
      `--role must be one of ${ASSIGNABLE_ROLES.join(', ')}`,
      "ownership moves with 'svc companies transfer <member>'",
    );
  const base = await companyPath(ctx, opts.company);
  const answer = await ctx
    .api()
    .post<{ invitation: { id: string; email: string; role: string; expires_at: string } }>(`${base}/invitations`, {
      email: opts.email,
      role,
    });
  if (ctx.json) return ctx.printJson(answer);
  const { invitation } = answer;
  ctx.out(
    `Invited ${invitation.email} as ${invitation.role} (${invitation.id}); valid until ${invitation.expires_at}.`,
  );
  ctx.out("The code went to that address by e-mail; they join with 'svc companies join <code>' or sign up with it.");
}

export function companiesInviteCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('invite')
    .description('invite someone to a Company by e-mail')
    .argument('<email>', 'the address to invite')
    .option('--role <role>', `${ASSIGNABLE_ROLES.join(', ')} (default: member)`)
    .option('--company <company>', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, flags: { role?: string; company?: string }, email: string) =>
    runCompaniesInvite({ ...flags, email }, ctx),
  );
}
