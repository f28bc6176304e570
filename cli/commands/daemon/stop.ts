import { Command } from '../../command-spec.js';
import { processIsAlive, readLock } from '../../../daemon/lock.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { FailedError } from '../../errors.js';

/** `svc daemon stop`: SIGTERM to the daemon holding the data folder, then wait for it to finish. Stopping a stopped daemon is not an error. */
export async function runStop(opts: { data?: string; timeoutMs: number }, ctx: CliContext): Promise<void> {
  const dir = ctx.dataDir(opts.data);
  const lock = readLock(dir);
  if (!lock || !processIsAlive(lock.pid)) {
    if (ctx.json) return ctx.printJson({ ok: true, running: false });
    ctx.err(`no svc daemon is running on ${dir}`);
    return;
  }
  process.kill(lock.pid, 'SIGTERM');
  const deadline = ctx.now() + opts.timeoutMs;
  while (processIsAlive(lock.pid)) {
    if (ctx.now() > deadline)
      throw new FailedError(
        `daemon (pid ${lock.pid}) did not stop within ${opts.timeoutMs / 1000} s`,
        `kill -9 ${lock.pid} forces it; the next start takes over its lock`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  if (ctx.json) return ctx.printJson({ ok: true, running: false, pid: lock.pid });
  ctx.out(`stopped svc daemon (pid ${lock.pid})`);
}

export function stopCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('stop')
    .description('stop the local daemon')
    .option('--data <dir>', 'data folder of the daemon');
  return action(cmd, makeCtx, (ctx, flags) => runStop({ data: flags.data, timeoutMs: 15000 }, ctx));
}
