import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { transferStoreOf } from './transfer-store.js';

/**
 * `svc admin export --out FILE`: the whole deployment (accounts, Companies, events, secrets) into
 * one archive. It reads the storage directly, like pg_dump, so it loads the daemon's store code
 * (the one CLI command besides `svc daemon` allowed to: .dependency-cruiser.cjs), lazily.
 */
export async function runExport(opts: { data?: string; database?: string; out: string }, ctx: CliContext) {
  const from = transferStoreOf(ctx, opts);
  const { exportArchive } = await import('../../../daemon/transfer/index.js');
  const done = await exportArchive(from, opts.out);
  if (ctx.json) return ctx.printJson(done);
  ctx.out(
    `exported ${done.records} records (${done.companies} Companies, ${done.events} events) from the ${done.store} to ${done.file}`,
  );
  ctx.err(`${done.file} holds the deployment's secrets and password hashes: keep it private (it is mode 0600)`);
}

export function exportCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('export')
    .description('write everything (accounts, Companies, events, secrets) to one archive file')
    .requiredOption('--out <file>', 'the archive to write (must not exist yet)')
    .option('--data <dir>', 'the data folder to export (its daemon must be stopped)')
    .option('--database <url>', 'the PostgreSQL database to export (postgres://…; else SVC_DATABASE_URL)');
  return action(cmd, makeCtx, (ctx, flags) =>
    runExport({ data: flags.data, database: flags.database, out: flags.out }, ctx),
  );
}
