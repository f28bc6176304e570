import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type AuditFilterFlags, auditSource, filtersOf, formatEntry, withAuditFilters } from './shared.js';

export interface AuditListOptions extends AuditFilterFlags {
  limit?: number;
  cursor?: string;
}

/** `svc audit list`: one page of the trail, newest first; the next page's cursor goes to stderr. */
export async function runAuditList(opts: AuditListOptions, ctx: CliContext): Promise<void> {
  const source = await auditSource(ctx, opts);
  const page = await source.page({ limit: opts.limit, cursor: opts.cursor });
  if (ctx.json) ctx.printList(page.entries);
  else {
    if (page.entries.length === 0) ctx.err('no audit entries');
    for (const e of page.entries) ctx.out(formatEntry(ctx, e));
  }
  if (page.next_cursor) ctx.err(`more: svc audit list --cursor ${page.next_cursor}`);
}

export function auditListCommand(makeCtx: ContextFactory): Command {
  const cmd = withAuditFilters(
    new Command('list').description("who did what: your audit entries and your Companies', newest first"),
  )
    .option('--limit <n>', 'at most this many (1-1000, default 100)')
    .option('--cursor <id>', 'the page after this entry (the cursor a previous page printed)');
  return action(cmd, makeCtx, (ctx, flags) => {
    const limit = flags.limit === undefined ? undefined : Number(flags.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000))
      throw new UsageError('--limit must be a whole number from 1 to 1000');
    return runAuditList({ ...filtersOf(flags), limit, cursor: flags.cursor }, ctx);
  });
}
