import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { formatTable, shortTime } from '../../table.js';
import { companyPath, listMembers } from './people.js';

/** `svc companies members [--company C]`: the Company's people and their roles, the owner first. */
export async function runCompaniesMembers(opts: { company?: string }, ctx: CliContext): Promise<void> {
  const members = await listMembers(ctx, await companyPath(ctx, opts.company));
  if (ctx.json) return ctx.printList(members);
  const rows = members.map((m) => [
    m.email ?? '(no e-mail)',
    m.role,
    m.user_id,
    m.joined_at ? shortTime(m.joined_at) : '',
  ]);
  formatTable(['EMAIL', 'ROLE', 'USER ID', 'JOINED'], rows).forEach((l) => {
    ctx.out(l);
  });
}

export function companiesMembersCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('members')
    .description("list a Company's members and their roles")
    .option('--company <company>', 'the Company name or id (default: the current one)');
  return action(cmd, makeCtx, (ctx, flags: { company?: string }) => runCompaniesMembers(flags, ctx));
}
