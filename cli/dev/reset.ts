import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dataFiles } from '../../shared/paths.js';
import { processIsAlive, readLock } from '../../shared/lock-file.js';
import type { CliContext } from '../context.js';
import { CancelledError, FailedError, UsageError } from '../errors.js';
import { ask } from '../prompt.js';

/**
 * `svc dev seed --reset`: empties the data folder and leaves a daemon running on it again — the one
 * that was running (same host and port) is stopped first and started afresh, or a new one on the
 * default address. Only a folder that looks like an svc data folder is emptied: a mistyped --data
 * must never wipe someone's home.
 */
export async function resetDataFolder(ctx: CliContext, dir: string, yes: boolean): Promise<void> {
  if (existsSync(dir) && readdirSync(dir).length > 0 && !existsSync(join(dir, dataFiles.operatorToken)))
    throw new FailedError(
      `${dir} does not look like an svc data folder (no ${dataFiles.operatorToken}); not emptying it`,
    );
  if (!yes) {
    if (!ctx.interactive) throw new UsageError(`--reset empties ${dir}: add --yes to confirm without a terminal`);
    const answer = await ask(ctx, `Delete everything in ${dir} (users, Companies, events, the clock offset)? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CancelledError('reset cancelled; nothing was deleted');
  }
  const lock = readLock(dir);
  const running = lock?.url && processIsAlive(lock.pid) ? new URL(lock.url) : null;
  // Printed on stderr: stdout stays the seed's own report.
  const quiet: CliContext = { ...ctx, json: false, out: (line = '') => ctx.err(line) };
  const { runStop } = await import('../commands/daemon/stop.js');
  if (running) await runStop({ data: dir, timeoutMs: 15_000 }, quiet);
  for (const name of existsSync(dir) ? readdirSync(dir) : []) rmSync(join(dir, name), { recursive: true, force: true });
  const { runStart } = await import('../commands/daemon/start.js');
  await runStart(
    {
      foreground: false,
      data: dir,
      timeoutMs: 30_000,
      ...(running ? { port: Number(running.port), host: running.hostname.replace(/^\[|\]$/g, '') } : {}),
    },
    quiet,
  );
}
