import { processIsAlive, readLock } from '../../../shared/lock-file.js';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError } from '../../errors.js';
import { operatorApi } from '../../operator.js';

interface Verification {
  ok: boolean;
  streams: number;
  entries: number;
  heads: Record<string, { seq: number; hash: string }>;
  broken: { stream: string; entry_id: string | null; seq: number | null; problem: string } | null;
}

/**
 * `svc admin audit verify`: re-walks every stream's hash chain and exits 0 when it holds, else
 * names the first entry that does not match and exits 1. A data folder whose daemon is stopped is
 * read directly (read-only; like `svc admin export`, it loads the daemon's store code, lazily); a
 * running daemon — a local one, or one of team mode's with `--url` — is asked through its
 * operator route, which reads what is stored, never its memory.
 */
export async function runAuditVerify(opts: { data?: string }, ctx: CliContext): Promise<void> {
  const dir = ctx.dataDir(opts.data);
  const lock = readLock(dir);
  const running = Boolean(lock?.url && processIsAlive(lock.pid));
  let report: Verification;
  let where: string;
  if (running || ctx.urlGiven) {
    report = await operatorApi(ctx, opts.data).get<Verification>('/api/dev/audit/verify');
    where = 'the daemon';
  } else {
    const { verifyAuditFolder } = await import('../../../daemon/store/audit/file-audit.js');
    report = verifyAuditFolder(dir);
    where = dir;
  }
  if (ctx.json) ctx.printJson(report);
  if (report.broken) {
    const b = report.broken;
    throw new FailedError(
      `the audit trail does not hold: ${b.entry_id ? `entry ${b.entry_id} (stream ${b.stream}, seq ${b.seq})` : 'a stored line'}: ${b.problem}`,
      'the entries before it verify; compare with a backup or an export taken earlier',
    );
  }
  if (!ctx.json) ctx.out(`the audit trail holds: ${report.entries} entries in ${report.streams} streams (${where})`);
}

/** `svc admin audit …`: one verb so far. */
export function adminAuditCommand(makeCtx: ContextFactory): Command {
  const verify = new Command('verify')
    .description('re-walk the audit hash chains: exit 0 when they hold, else name the first entry that does not')
    .option('--data <dir>', 'the data folder (read directly when its daemon is stopped)');
  action(verify, makeCtx, (ctx, flags) => runAuditVerify({ data: flags.data }, ctx));
  return new Command('audit').description('the audit trail: verify its hash chains').addCommand(verify);
}
