import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { transferStoreOf } from './transfer-store.js';

/** `svc admin import --in FILE`: an archive of `svc admin export` into an empty data folder or database, all or nothing. */
export async function runImport(opts: { data?: string; database?: string; in: string }, ctx: CliContext) {
  const to = transferStoreOf(ctx, opts);
  const { importArchive } = await import('../../../daemon/transfer/index.js');
  const done = await importArchive(opts.in, to);
  if (ctx.json) return ctx.printJson(done);
  ctx.out(
    `imported ${done.records} records (${done.companies} Companies, ${done.events} events) from ${done.file} into the ${done.store}`,
  );
}

export function importCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('import')
    .description('load an archive of svc admin export into an empty data folder or database')
    .requiredOption('--in <file>', 'the archive to read')
    .option('--data <dir>', 'the data folder to create (missing or empty)')
    .option('--database <url>', 'the PostgreSQL database to fill (empty; else SVC_DATABASE_URL)');
  return action(cmd, makeCtx, (ctx, flags) =>
    runImport({ data: flags.data, database: flags.database, in: flags.in }, ctx),
  );
}
