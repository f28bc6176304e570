import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { type AuditFilterFlags, auditSource, filtersOf, formatEntry, withAuditFilters } from './shared.js';

export interface AuditTailOptions extends AuditFilterFlags {
  /** Start after this entry id; default: after the newest entry now (only what happens from now on). */
  after?: string;
  intervalMs?: number;
  signal?: AbortSignal;
  /** Injected in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * `svc audit tail`: prints entries as they are recorded, oldest first, by asking for the entries
 * after the last one printed (the daemon makes entries visible in commit order, so none is
 * skipped). A failed poll is reported on stderr and retried. Ctrl-C stops it.
 */
export async function runAuditTail(opts: AuditTailOptions, ctx: CliContext): Promise<void> {
  const source = await auditSource(ctx, opts);
  const sleep = opts.sleep ?? pause;
  // Piped (or --json): one JSON object per line, as `svc events tail` prints.
  const lines = ctx.json || !ctx.io.stdout.isTTY;
  let after = opts.after ?? (await source.page({ limit: 1 })).entries[0]?.id;
  if (!lines) ctx.err(`following the audit trail${after ? ` after ${after}` : ''} (Ctrl-C to stop)`);
  let failing = false;
  while (!opts.signal?.aborted) {
    try {
      // No entry yet: everything from the first on is new.
      const page = await source.page({ after: after ?? 'aud_0000000000000000', limit: 1000 }, opts.signal);
      if (failing) ctx.err('svc: reconnected');
      failing = false;
      for (const e of page.entries) ctx.out(lines ? JSON.stringify(e) : formatEntry(ctx, e));
      after = page.entries.at(-1)?.id ?? after;
      if (page.next_cursor) continue;
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (!failing) ctx.err(`svc: ${(err as Error).message}; retrying`);
      failing = true;
    }
    await sleep(opts.intervalMs ?? 2000, opts.signal);
  }
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function auditTailCommand(makeCtx: ContextFactory): Command {
  const cmd = withAuditFilters(new Command('tail').description('print audit entries as they are recorded')).option(
    '--after <id>',
    'start after this entry id (resume where you left off)',
  );
  return action(cmd, makeCtx, (ctx, flags) => {
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    return runAuditTail({ ...filtersOf(flags), after: flags.after, signal: controller.signal }, ctx);
  });
}
