import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey, resolveCompanyId } from '../../company.js';
import type { CliContext } from '../../context.js';
import { CancelledError, UsageError } from '../../errors.js';
import { ask } from '../../prompt.js';
import { companyRefListResponse } from '../../../shared/schemas/companies.js';

interface Deleted {
  id: string;
  name: string;
  members_removed: number;
  invitations_revoked: number;
  keys_revoked: number;
}

/**
 * `svc companies delete <company> [--yes]` (the owner only): there is no undo, so on a terminal the
 * Company's name must be typed back; a script says --yes instead.
 */
export async function runCompaniesDelete(opts: { company: string; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = await resolveCompanyId(ctx, opts.company);
  const { companies } = await ctx.api().get('/api/companies', { schema: companyRefListResponse });
  const company = companies.find((c) => c.id === id)!;
  if (!opts.yes) {
    if (!ctx.interactive)
      throw new UsageError(`deleting ${company.name} cannot be undone`, 'add --yes to confirm without a terminal');
    const typed = await ask(
      ctx,
      `This deletes ${company.name} (${company.id}) for everyone: its agents, sessions, quests, events, keys, members and invitations. Type its name to confirm: `,
    );
    if (typed.trim() !== company.name) throw new CancelledError('the name did not match; nothing was deleted');
  }
  const answer = await ctx.api().delete<Deleted>(`/api/companies/${encodeURIComponent(company.id)}`);
  // The current Company of this profile is gone: runtime commands must not keep aiming at it.
  const current = ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope));
  if (current?.id === company.id) ctx.config().delete(currentCompanyKey(ctx.scope));
  if (ctx.json) return ctx.printJson(answer);
  ctx.out(
    `Deleted ${answer.name} (${answer.id}): ${answer.keys_revoked} key(s) revoked, ${answer.members_removed} member(s) and ${answer.invitations_revoked} pending invitation(s) removed.`,
  );
}

export function companiesDeleteCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('delete')
    .description('delete a Company you own, with everything in it')
    .argument('<company>', 'the Company name or id')
    .option('--yes', 'do not ask (scripts)');
  return action(cmd, makeCtx, (ctx, flags: { yes?: boolean }, company: string) =>
    runCompaniesDelete({ company, yes: flags.yes }, ctx),
  );
}
